package dev.schedlab.api;

/** Flag bits passed to {@link SchedulingClass} callbacks, named after the kernel's. */
public final class SchedFlags {
  /** Enqueue: the task is waking up ({@code ENQUEUE_WAKEUP}). */
  public static final int ENQUEUE_WAKEUP = 0x01;

  /**
   * Enqueue: first enqueue of a new task ({@code ENQUEUE_INITIAL}). With {@link #ENQUEUE_WAKEUP} (a
   * pair the kernel never passes): the first enqueue of a task that existed, runnable, before the
   * run began (an imported trace's), which has a new task's load tracking but is placed as a woken
   * task, not as a fork.
   */
  public static final int ENQUEUE_INITIAL = 0x02;

  /** Enqueue: the task changed CPU ({@code ENQUEUE_MIGRATED}). */
  public static final int ENQUEUE_MIGRATED = 0x04;

  /** Enqueue: a delayed-dequeue task is requeued in place ({@code ENQUEUE_DELAYED}). */
  public static final int ENQUEUE_DELAYED = 0x08;

  /** Dequeue: the task is going to sleep ({@code DEQUEUE_SLEEP}). */
  public static final int DEQUEUE_SLEEP = 0x01;

  /** Dequeue: the task is being moved to another CPU ({@code DEQUEUE_MIGRATING}). */
  public static final int DEQUEUE_MIGRATING = 0x02;

  /** Dequeue: finish a delayed dequeue ({@code DEQUEUE_DELAYED}). */
  public static final int DEQUEUE_DELAYED = 0x04;

  /** Wake flag: the waker is about to sleep ({@code WF_SYNC}). */
  public static final int WF_SYNC = 0x01;

  /** Wake flag: a regular wakeup ({@code WF_TTWU}). */
  public static final int WF_TTWU = 0x02;

  /** Wake flag: first wakeup of a new task ({@code WF_FORK}). */
  public static final int WF_FORK = 0x04;

  private SchedFlags() {}
}
