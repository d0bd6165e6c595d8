package dev.schedlab.api;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;

/**
 * What a CPU does when it goes idle, in the role of the cpuidle governor ({@code menu}/{@code
 * teo}): which idle state to enter and whether to stop the tick. Called from the idle loop with
 * IRQs off.
 */
public interface IdlePolicy {
  /** Called once before the run starts. */
  default void init(MachineView machine) {}

  /** Short name, for example {@code menu}. */
  String name();

  /**
   * {@code cpuidle_select()}: index into the machine's idle-state table.
   *
   * @param sleepLengthNs time to the next timer event if the tick were stopped ({@code
   *     tick_nohz_get_sleep_length()}), ns; {@link Long#MAX_VALUE} when none
   * @param tickDeltaNs time to the next tick ({@code delta_tick}), ns
   * @param latencyLimitNs PM QoS exit-latency limit, ns ({@link Long#MAX_VALUE} when none)
   */
  int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs);

  /**
   * Whether to stop the tick before entering {@code stateIndex} (the governor's {@code stop_tick}).
   */
  boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs);

  /**
   * {@code cpuidle_reflect()}: the CPU left {@code stateIndex}; {@code residencyNs} is {@code
   * dev->last_residency_ns}, from the state's entry to the return of its enter callback, so it
   * includes the exit latency (and, for a state entered with interrupts on, the handler that woke
   * it); for a state entered with an interrupt already pending it is 0, and for a polling state
   * left on its time limit the engine passes the sleep length, as menu's {@code menu_update()}
   * assumes. An entry cancelled by NEED_RESCHED is not reflected.
   */
  default void reflect(CpuView cpu, int stateIndex, long residencyNs) {}

  /**
   * {@code cpuidle_reflect()} with whether a polling state ended on its time limit ({@code
   * dev->poll_time_limit}), which some governors (haltpoll) act on. The default passes the call to
   * {@link #reflect(CpuView, int, long)}.
   *
   * @since 1.2.0
   */
  default void reflect(CpuView cpu, int stateIndex, long residencyNs, boolean pollTimeLimit) {
    reflect(cpu, stateIndex, residencyNs);
  }

  /**
   * How long state 0 busy-loops before the governor chooses again ({@code cpuidle_poll_time()}): a
   * governor that keeps its own per-CPU limit ({@code dev->poll_limit_ns}, as haltpoll does)
   * returns it; the default keeps the driver's limit.
   *
   * @param cpuidlePollTimeNs the limit {@code cpuidle_poll_time()} derives from the state table
   * @since 1.2.0
   */
  default long pollTimeLimitNs(CpuView cpu, long cpuidlePollTimeNs) {
    return cpuidlePollTimeNs;
  }
}
