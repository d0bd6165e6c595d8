package dev.schedlab.host;

import dev.schedlab.engine.config.IdleStateSpec;
import java.util.List;
import java.util.Map;

/**
 * What {@code schedlab host} found out about the machine it runs on, each value with its source.
 *
 * @param summary one line: kernel release, architecture, CPU model, CPU count
 * @param sockets packages
 * @param coresPerSocket cores per package
 * @param threadsPerCore SMT width
 * @param coresPerLlc cores per last-level cache, 0 for the whole package
 * @param numaNodesPerSocket NUMA nodes per package
 * @param idleStates the cpuidle driver's states, shallowest first; empty without a driver
 * @param disabledStates states disabled in sysfs
 * @param governor the cpuidle governor as the model names it
 * @param virtualized whether the machine is a VM guest
 * @param isolatedCpus isolcpus and nohz_full CPUs, as a cpulist
 * @param mitigations mitigation names (docs/scenarios.md)
 * @param hz CONFIG_HZ
 * @param preempt the preemption model in effect
 * @param timerSlackNs the default timer slack of a task
 * @param params kernel-version features (feature.PROTECT_QUANTUM) and module parameters the model
 *     reads (haltpoll.*), by parameter key
 * @param notes facts recorded as comments only (clockevent device, hypervisor, ...)
 */
public record HostDescription(
    String summary,
    Sourced<Integer> sockets,
    Sourced<Integer> coresPerSocket,
    Sourced<Integer> threadsPerCore,
    Sourced<Integer> coresPerLlc,
    Sourced<Integer> numaNodesPerSocket,
    Sourced<List<IdleStateSpec>> idleStates,
    Sourced<List<String>> disabledStates,
    Sourced<String> governor,
    Sourced<Boolean> virtualized,
    Sourced<String> isolatedCpus,
    Sourced<List<String>> mitigations,
    Sourced<Integer> hz,
    Sourced<String> preempt,
    Sourced<Long> timerSlackNs,
    Map<String, Sourced<Long>> params,
    List<String> notes) {
  public HostDescription {
    params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    notes = List.copyOf(notes);
  }

  /** Number of CPUs the description has. */
  public int nrCpus() {
    return sockets.value() * coresPerSocket.value() * threadsPerCore.value();
  }
}
