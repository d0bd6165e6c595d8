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
 * @param customIdleStates the machine's own idle-state table when {@code idleStates} is
 *     {@link #CUSTOM_IDLE_TABLE} (a machine file's list), else empty
 * @param mitigations speculative-execution mitigations the kernel runs with ({@code pti},
 *     {@code pcid}, {@code retpoline}, {@code rsb_fill}, {@code ibpb}, {@code verw},
 *     {@code return_thunk}); each adds its cost to the kernel paths (docs/model.md)
 * @param noise interruptions of the CPUs the model does not produce itself (steal, SMIs)
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
    NoiseSpec noise) {
  /** The {@code idleStates} name of a table given state by state. */
  public static final String CUSTOM_IDLE_TABLE = "custom";

  public MachineSpec {
    disabledStates = List.copyOf(disabledStates);
    customIdleStates = List.copyOf(customIdleStates);
    mitigations = List.copyOf(mitigations);
  }

  /** A machine with a named idle-state table, no mitigations and no noise. */
  public MachineSpec(String preset, int sockets, int coresPerSocket, int threadsPerCore,
      int coresPerLlc, int numaNodesPerSocket, String idleStates, List<String> disabledStates,
      String idleGovernor, boolean virtualized, String isolatedCpus) {
    this(preset, sockets, coresPerSocket, threadsPerCore, coresPerLlc, numaNodesPerSocket,
        idleStates, disabledStates, idleGovernor, virtualized, isolatedCpus, List.of(), List.of(),
        NoiseSpec.NONE);
  }

  /** Number of CPUs (hardware threads). */
  public int nrCpus() {
    return sockets * coresPerSocket * threadsPerCore;
  }
}
