package dev.schedlab.api.view;

/** One entry of a cpuidle driver's state table ({@code struct cpuidle_state}). */
public interface IdleStateView {
  /** Name as in sysfs, for example {@code POLL}, {@code C1}, {@code C6}, {@code HLT}. */
  String name();

  /** Exit latency, ns. */
  long exitLatencyNs();

  /** Target residency, ns. */
  long targetResidencyNs();

  /** Whether the CPU keeps {@code TIF_POLLING_NRFLAG} set in this state (POLL and MWAIT states). */
  boolean polling();

  /** Whether the state is enabled (disabled states are never chosen). */
  boolean enabled();

  /**
   * Whether the driver marks the state {@code CPUIDLE_FLAG_POLLING} (a software busy-poll loop such
   * as x86 POLL). The menu governor avoids such a state unless a timer is due soon. Default: a
   * polling state with no exit latency.
   */
  default boolean flagPolling() {
    return polling() && exitLatencyNs() == 0;
  }
}
