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
    String isolatedCpus) {
  public MachineSpec {
    disabledStates = List.copyOf(disabledStates);
  }

  /** Number of CPUs (hardware threads). */
  public int nrCpus() {
    return sockets * coresPerSocket * threadsPerCore;
  }
}
