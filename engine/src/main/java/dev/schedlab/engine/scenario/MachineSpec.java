package dev.schedlab.engine.scenario;

import java.util.List;

/**
 * The simulated machine.
 *
 * @param preset name of the preset the fields started from (informational)
 * @param sockets packages
 * @param coresPerSocket physical cores per package
 * @param threadsPerCore SMT width
 * @param coresPerLlc cores sharing a last-level cache (0 = the whole socket)
 * @param numaNodesPerSocket NUMA nodes per package (1 normally)
 * @param idleStates name of the idle-state table: skx, icx, spr, amd-acpi, poll-only, hlt-only
 * @param disabledStates idle states disabled by name (for example C2 or C6)
 * @param idleGovernor name of the {@link dev.schedlab.api.IdlePolicy}, for example menu
 * @param virtualized whether this is a VM guest (IPI sends cause VM exits, halted vCPUs wake via the host)
 * @param isolatedCpus CPUs in isolcpus/nohz_full, as a cpulist ("" for none)
 * @param cpuCapacity {@code arch_scale_cpu_capacity()} of each CPU (empty: 1024 for every CPU)
 * @param frequencyPct the fixed current frequency in percent of the highest (frequency
 *     invariance: {@code arch_scale_freq_capacity()} = 1024 x pct / 100)
 */
public record MachineSpec(
    String preset,
    int sockets,
    int coresPerSocket,
    int threadsPerCore,
    int coresPerLlc,
    int numaNodesPerSocket,
    String idleStates,
    List<String> disabledStates,
    String idleGovernor,
    boolean virtualized,
    String isolatedCpus,
    List<Integer> cpuCapacity,
    int frequencyPct) {
  public MachineSpec {
    disabledStates = List.copyOf(disabledStates);
    cpuCapacity = List.copyOf(cpuCapacity);
  }

  /** A symmetric machine at its highest frequency. */
  public MachineSpec(String preset, int sockets, int coresPerSocket, int threadsPerCore,
      int coresPerLlc, int numaNodesPerSocket, String idleStates, List<String> disabledStates,
      String idleGovernor, boolean virtualized, String isolatedCpus) {
    this(preset, sockets, coresPerSocket, threadsPerCore, coresPerLlc, numaNodesPerSocket,
        idleStates, disabledStates, idleGovernor, virtualized, isolatedCpus, List.of(), 100);
  }

  /** {@code arch_scale_cpu_capacity(cpu)}. */
  public int capacityOf(int cpu) {
    return cpuCapacity.isEmpty() ? 1024 : cpuCapacity.get(cpu);
  }

  /** Number of CPUs (hardware threads). */
  public int nrCpus() {
    return sockets * coresPerSocket * threadsPerCore;
  }
}
