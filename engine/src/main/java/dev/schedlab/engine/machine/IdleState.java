package dev.schedlab.engine.machine;

import dev.schedlab.api.view.IdleStateView;

/**
 * One cpuidle state.
 *
 * @param name sysfs name
 * @param exitLatencyNs exit latency
 * @param targetResidencyNs target residency
 * @param polling whether TIF_POLLING_NRFLAG stays set (POLL and MWAIT states)
 * @param enabled whether the governor may choose it
 * @param flagPolling whether the driver table marks it {@code CPUIDLE_FLAG_POLLING}
 */
public record IdleState(
    String name, long exitLatencyNs, long targetResidencyNs, boolean polling, boolean enabled,
    boolean flagPolling)
    implements IdleStateView {

  /** A state whose {@code CPUIDLE_FLAG_POLLING} follows the default (POLL-like states). */
  public IdleState(String name, long exitLatencyNs, long targetResidencyNs, boolean polling,
      boolean enabled) {
    this(name, exitLatencyNs, targetResidencyNs, polling, enabled,
        polling && exitLatencyNs == 0);
  }

  /**
   * Whether the CPU spins in software in this state (x86 POLL, POWER snooze): it notices a flag
   * write at once, has a time limit, and takes a share of its SMT core.
   */
  public boolean busyLoop() {
    return polling && exitLatencyNs == 0;
  }

  /** The same state, enabled or not. */
  public IdleState withEnabled(boolean on) {
    return new IdleState(name, exitLatencyNs, targetResidencyNs, polling, on, flagPolling);
  }
}
