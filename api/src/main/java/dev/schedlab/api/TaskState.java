package dev.schedlab.api;

/** The task state word ({@code p->__state}) as far as the scheduler cares. */
public enum TaskState {
  /** {@code TASK_RUNNING}: runnable or running. */
  RUNNING,
  /** {@code TASK_INTERRUPTIBLE}: sleeping, may be woken by a signal. */
  INTERRUPTIBLE,
  /** {@code TASK_UNINTERRUPTIBLE}. */
  UNINTERRUPTIBLE,
  /** {@code TASK_DEAD}: exited. */
  DEAD
}
