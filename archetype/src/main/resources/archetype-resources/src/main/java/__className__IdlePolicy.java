package ${package};

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import java.util.List;

/**
 * An idle policy (a cpuidle governor) named after the plugin id, for {@code machine.idle_governor}.
 * It starts as a ladder without prediction: the deepest enabled state whose target residency fits
 * the time to the next timer event and whose exit latency fits the PM QoS limit.
 *
 * <p>Models: the choice of a state from the next timer event and the latency limit.
 *
 * <p>Does not model: prediction from past idle periods (menu's correction factors, teo's
 * intercepts): a CPU woken early by an IPI still goes deep next time.
 *
 * <p>Kernel reference: drivers/cpuidle/governors/ (menu.c, teo.c) for the governors it
 * simplifies.
 */
final class ${className}IdlePolicy implements IdlePolicy {
  private final String name;
  private MachineView machine;
  private List<? extends IdleStateView> states = List.of();

  ${className}IdlePolicy(String name) {
    this.name = name;
  }

  @Override
  public void init(MachineView machine) {
    this.machine = machine;
    this.states = machine.idleStates();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    int chosen = -1;
    for (int i = 0; i < states.size(); i++) {
      IdleStateView s = states.get(i);
      boolean fits = s.targetResidencyNs() <= sleepLengthNs && s.exitLatencyNs() <= latencyLimitNs;
      if (s.enabled() && (fits || chosen < 0)) {
        chosen = i;
      }
    }
    return Math.max(chosen, 0);
  }

  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    return sleepLengthNs > machine.tickNs();
  }
}
