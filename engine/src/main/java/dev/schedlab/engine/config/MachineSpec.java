package dev.schedlab.engine.config;

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
 * @param virtualized whether this is a VM guest (IPI sends cause VM exits, halted vCPUs wake via
 *     the host)
 * @param isolatedCpus CPUs in isolcpus/nohz_full, as a cpulist ("" for none)
 * @param customIdleStates the machine's own idle-state table when {@code idleStates} is {@link
 *     #CUSTOM_IDLE_TABLE} (a machine file's list), else empty
 * @param mitigations speculative-execution mitigations the kernel runs with ({@code pti}, {@code
 *     pcid}, {@code retpoline}, {@code rsb_fill}, {@code ibpb}, {@code verw}, {@code
 *     return_thunk}); each adds its cost to the kernel paths (docs/model.md)
 * @param noise interruptions of the CPUs the model does not produce itself (steal, SMIs)
 * @param cpuCapacity {@code arch_scale_cpu_capacity()} of each CPU (empty: 1024 for every CPU)
 * @param frequencyPct the fixed current frequency in percent of the highest (frequency invariance:
 *     {@code arch_scale_freq_capacity()} = 1024 x pct / 100)
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
    List<IdleStateSpec> customIdleStates,
    List<String> mitigations,
    NoiseSpec noise,
    List<Integer> cpuCapacity,
    int frequencyPct) {
  /** The {@code idleStates} name of a table given state by state. */
  public static final String CUSTOM_IDLE_TABLE = "custom";

  public MachineSpec {
    disabledStates = List.copyOf(disabledStates);
    customIdleStates = List.copyOf(customIdleStates);
    mitigations = List.copyOf(mitigations);
    cpuCapacity = List.copyOf(cpuCapacity);
  }

  /** A symmetric machine at its highest frequency. */
  public MachineSpec(
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
      List<IdleStateSpec> customIdleStates,
      List<String> mitigations,
      NoiseSpec noise) {
    this(
        preset,
        sockets,
        coresPerSocket,
        threadsPerCore,
        coresPerLlc,
        numaNodesPerSocket,
        idleStates,
        disabledStates,
        idleGovernor,
        virtualized,
        isolatedCpus,
        customIdleStates,
        mitigations,
        noise,
        List.of(),
        100);
  }

  /** A machine with a named idle-state table, no mitigations and no noise. */
  public MachineSpec(
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
      String isolatedCpus) {
    this(
        preset,
        sockets,
        coresPerSocket,
        threadsPerCore,
        coresPerLlc,
        numaNodesPerSocket,
        idleStates,
        disabledStates,
        idleGovernor,
        virtualized,
        isolatedCpus,
        List.of(),
        List.of(),
        NoiseSpec.NONE);
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
