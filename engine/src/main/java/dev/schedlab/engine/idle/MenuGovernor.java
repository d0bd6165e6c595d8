package dev.schedlab.engine.idle;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import java.util.Arrays;
import java.util.List;

/**
 * A menu-like cpuidle governor (drivers/cpuidle/governors/menu.c, {@code menu_select()},
 * {@code menu_reflect()}).
 *
 * <p>Models:
 *
 * <ul>
 *   <li>the prediction: the smaller of the sleep length (next timer if the tick were stopped) and
 *       the mean of the CPU's last eight idle durations; capped by the next tick when the tick is
 *       kept; replaced by the sleep length when the tick is already stopped and the prediction is
 *       shorter than a tick;
 *   <li>state 0 outright when the sleep length or the PM QoS limit rules out state 1;
 *   <li>the deepest enabled state whose target residency fits the prediction and whose exit
 *       latency fits the limit; a {@code CPUIDLE_FLAG_POLLING} state gives way to the next
 *       physical state unless a timer is due within that state's target residency;
 *   <li>{@code stop_tick}: the tick is kept for a polling state or a prediction below a tick.
 * </ul>
 *
 * <p>Does not model: {@code get_typical_interval()}'s outlier filtering (the plain mean stands in;
 * see docs/model.md for what the faithful version does to an ipistorm target) and the correction
 * factors by sleep-length bucket (they need the timer-wheel events the engine does not have), the
 * iowait heuristic, or teo.
 */
public final class MenuGovernor implements IdlePolicy {
  private static final int HISTORY = 8;
  private MachineView machine;
  private long[][] history;
  private int[] next;

  @Override
  public void init(MachineView m) {
    machine = m;
    history = new long[m.nrCpus()][HISTORY];
    next = new int[m.nrCpus()];
    for (long[] h : history) {
      Arrays.fill(h, Long.MAX_VALUE / HISTORY);
    }
  }

  @Override
  public String name() {
    return "menu";
  }

  private long predict(int cpu, long sleepLengthNs) {
    long sum = 0;
    for (long v : history[cpu]) {
      sum += v;
    }
    return Math.min(sleepLengthNs, sum / HISTORY);
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    List<? extends IdleStateView> states = machine.idleStates();
    if (states.size() > 1 && states.get(0).enabled()
        && (sleepLengthNs < states.get(1).targetResidencyNs()
            || latencyLimitNs < states.get(1).exitLatencyNs())) {
      return 0; // state 0 would be used no matter what
    }
    long predicted = predict(cpu.id(), sleepLengthNs);
    if (cpu.tickStopped()) {
      // With the tick already stopped a short misprediction could strand the CPU in a shallow
      // state: trust the next timer instead.
      predicted = predicted < machine.tickNs() ? sleepLengthNs : predicted;
    } else if (predicted < machine.tickNs()) {
      // The tick stays: the idle period cannot outlast the next tick.
      predicted = Math.min(predicted, tickDeltaNs);
    }
    int chosen = -1;
    for (int i = 0; i < states.size(); i++) {
      IdleStateView s = states.get(i);
      if (!s.enabled()) {
        continue;
      }
      if (chosen < 0) {
        chosen = i; // the first enabled state
      }
      if (s.targetResidencyNs() > predicted) {
        // A physical state rather than busy polling, unless a timer is due before this state
        // would pay off.
        if (states.get(chosen).flagPolling() && s.exitLatencyNs() <= latencyLimitNs
            && s.targetResidencyNs() <= sleepLengthNs) {
          chosen = i;
        }
        break;
      }
      if (s.exitLatencyNs() > latencyLimitNs) {
        break;
      }
      chosen = i;
    }
    return Math.max(chosen, 0);
  }

  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    boolean polling = machine.idleStates().get(stateIndex).flagPolling();
    return !polling && predict(cpu.id(), sleepLengthNs) >= machine.tickNs();
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs) {
    int c = cpu.id();
    history[c][next[c]] = residencyNs;
    next[c] = (next[c] + 1) % HISTORY;
  }
}
