package dev.schedlab.api;

/** Which thread flag a reschedule request sets on the running task (section 1.3 of the model). */
public enum ReschedBit {
  /** Do not request a reschedule. */
  NONE,
  /**
   * {@code TIF_NEED_RESCHED_LAZY}: acted on at exit to user mode, or after the tick upgrades it.
   */
  LAZY,
  /** {@code TIF_NEED_RESCHED}: acted on at the next preemption point the model honours. */
  NR
}
