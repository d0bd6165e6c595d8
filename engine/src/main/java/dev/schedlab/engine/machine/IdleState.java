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
 * @param irqEnable whether it is entered with interrupts on ({@code CPUIDLE_FLAG_IRQ_ENABLE},
 *     {@code intel_idle_irq()}): an interrupt is handled as soon as MWAIT wakes, before {@code
 *     cpuidle_enter_state()}'s bookkeeping and with POLLING still set
 */
public record IdleState(
    String name,
    long exitLatencyNs,
    long targetResidencyNs,
    boolean polling,
    boolean enabled,
    boolean flagPolling,
    boolean irqEnable)
    implements IdleStateView {

  /** A state entered with interrupts off. */
  public IdleState(
      String name,
      long exitLatencyNs,
      long targetResidencyNs,
      boolean polling,
      boolean enabled,
      boolean flagPolling) {
    this(name, exitLatencyNs, targetResidencyNs, polling, enabled, flagPolling, false);
  }

  /** A state whose {@code CPUIDLE_FLAG_POLLING} follows the default (POLL-like states). */
  public IdleState(
      String name, long exitLatencyNs, long targetResidencyNs, boolean polling, boolean enabled) {
    this(name, exitLatencyNs, targetResidencyNs, polling, enabled, polling && exitLatencyNs == 0);
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
    return new IdleState(
        name, exitLatencyNs, targetResidencyNs, polling, on, flagPolling, irqEnable);
  }
}
