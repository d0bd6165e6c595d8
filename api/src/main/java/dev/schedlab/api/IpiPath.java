package dev.schedlab.api;

/** Which kernel path sent an IPI or took the polling shortcut; IPI metrics are counted per path. */
public enum IpiPath {
  /** {@code resched_curr()} on a remote CPU (RESCHEDULE vector). */
  RESCHED,
  /** A remote wakeup queued on the target's wake list ({@code __ttwu_queue_wakelist}). */
  REMOTE_WAKEUP,
  /** An idle-load-balance kick ({@code kick_ilb}). */
  ILB_KICK,
  /** {@code smp_call_function_single()} and other cross-CPU calls. */
  CALL_FUNCTION
}
