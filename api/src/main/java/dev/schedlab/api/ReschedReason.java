package dev.schedlab.api;

/**
 * Why a scheduling class or the core asks for a reschedule; input to {@link
 * PreemptionModel#chooseBit}.
 */
public enum ReschedReason {
  /** A task of the same class as {@code curr} should run ({@code wakeup_preempt_fair}). */
  WAKEUP_SAME_CLASS,
  /**
   * A task of a higher class than {@code curr} woke ({@code wakeup_preempt} cross-class branch).
   */
  WAKEUP_HIGHER_CLASS,
  /** {@code curr} used up its slice, noticed at the tick. */
  SLICE_EXPIRY_TICK,
  /** A request that must not be lazy (for example a deadline task is no longer leftmost). */
  FORCE,
  /** {@code curr} is the idle task: a task became runnable on an idle CPU. */
  IDLE_CURR,
  /** {@code resched_cpu()} from elsewhere in the kernel. */
  RESCHED_CPU
}
