package dev.schedlab.api;

/** The {@code sched_mode} argument of {@code __schedule()}. */
public enum SchedMode {
  /**
   * {@code SM_IDLE}: from {@code schedule_idle()} (v6.12+; engines without the fast path pass it
   * too).
   */
  IDLE,
  /** {@code SM_NONE}: voluntary {@code schedule()}. */
  NONE,
  /** {@code SM_PREEMPT}: involuntary, from a preemption point. */
  PREEMPT
}
