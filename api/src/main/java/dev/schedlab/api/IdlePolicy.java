package dev.schedlab.api;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;

/**
 * What a CPU does when it goes idle, in the role of the cpuidle governor ({@code menu}/{@code teo}):
 * which idle state to enter and whether to stop the tick. Called from the idle loop with IRQs off.
 */
public interface IdlePolicy {
  /** Called once before the run starts. */
  default void init(MachineView machine) {}

  /** Short name, for example {@code menu}. */
  String name();

  /**
   * {@code cpuidle_select()}: index into the machine's idle-state table.
   *
   * @param nextTimerNs time until the next timer event on this CPU (tick included), ns
   * @param latencyLimitNs PM QoS exit-latency limit, ns ({@link Long#MAX_VALUE} when none)
   */
  int select(CpuView cpu, long nextTimerNs, long latencyLimitNs);

  /** Whether to stop the tick before entering {@code stateIndex} (the governor's {@code stop_tick}). */
  boolean stopTick(CpuView cpu, int stateIndex, long nextTimerNs);

  /** {@code cpuidle_reflect()}: the CPU left {@code stateIndex} after {@code residencyNs}. */
  default void reflect(CpuView cpu, int stateIndex, long residencyNs) {}
}
