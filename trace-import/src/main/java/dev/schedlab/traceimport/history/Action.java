package dev.schedlab.traceimport.history;

/** What a task did, in its own order: the material of its replay program. */
public sealed interface Action {
  /**
   * Time on a CPU between two other actions.
   *
   * @param onCpuNs time the task was current on a CPU
   * @param irqNs of that, time spent in interrupt handlers (the replay has its own interrupts)
   * @param switchIns times it was switched in during this stretch
   * @param switchInsFromIdle of those, switches from the idle task
   * @param queuedWakeups of those, the first after a wakeup from another CPU (queued on this one)
   */
  record Run(long onCpuNs, long irqNs, int switchIns, int switchInsFromIdle, int queuedWakeups)
      implements Action {}

  /**
   * The task woke {@code target} (from task context). {@code queued}: onto another CPU that was
   * idle, where the wakeup is queued and that CPU activates the task. {@code remote}: onto another
   * CPU that was busy, where the waker activates the task itself. {@code sync}: the waker's next
   * event on its CPU was its own switch out asleep or dead, so the wakeup is taken as synchronous
   * ({@code WF_SYNC}, {@link SyncWakes}).
   */
  record Wake(TracedTask target, boolean queued, boolean remote, boolean sync) implements Action {}

  /** The task forked {@code child} (a fork event of the trace). */
  record Fork(TracedTask child) implements Action {}

  /** The task blocked; how it ended is known once it is woken (or the trace ends). */
  final class Block implements Action {
    /** How a block ended. */
    public enum End {
      /** Woken by another task of the trace: the waker's step wakes it in the replay. */
      BY_TASK,
      /** Woken from an interrupt (a timer, a device) or by no task: a sleep of the same length. */
      TIMED,
      /** Still blocked when the trace ends. */
      NEVER
    }

    private final boolean uninterruptible;
    private End end = End.NEVER;
    private long durationNs;

    /** A block whose state the trace does not give. */
    Block() {
      this(false);
    }

    /**
     * A block; {@code uninterruptible}: switched out in {@code TASK_UNINTERRUPTIBLE} ({@code D}), a
     * wait inside a kernel path (I/O, a lock), not a system call of its own.
     */
    Block(boolean uninterruptible) {
      this.uninterruptible = uninterruptible;
    }

    /** Whether it was an uninterruptible wait ({@code D}). */
    public boolean uninterruptible() {
      return uninterruptible;
    }

    /** How it ended. */
    public End end() {
      return end;
    }

    /** For {@link End#TIMED}: from blocking to the wakeup. */
    public long durationNs() {
      return durationNs;
    }

    void woken(End how, long duration) {
      this.end = how;
      this.durationNs = duration;
    }
  }

  /** The task exited. */
  record Exit() implements Action {}
}
