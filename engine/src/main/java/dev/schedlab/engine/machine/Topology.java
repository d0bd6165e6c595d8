package dev.schedlab.engine.machine;

import dev.schedlab.engine.config.MachineSpec;

/**
 * CPU numbering as Linux enumerates an x86 server.
 *
 * <p>Models: CPUs 0..N/T-1 are the first thread of every core, socket by socket; the SMT siblings
 * follow in the same order (so CPU c and c + cores are siblings); cores grouped by LLC and NUMA
 * node within each socket.
 *
 * <p>Does not model: other enumerations (siblings adjacent, as on arm64 and POWER), and CPU
 * hotplug.
 *
 * <p>Kernel reference: {@code arch/x86/kernel/smpboot.c} ({@code set_cpu_sibling_map}),
 * Documentation/arch/x86/topology.rst.
 */
public final class Topology {
  private final int nrCpus;
  private final int[] core;
  private final int[] llc;
  private final int[] pkg;
  private final int[] node;

  /** Topology of {@code spec}. */
  public Topology(MachineSpec spec) {
    int cores = spec.sockets() * spec.coresPerSocket();
    nrCpus = cores * spec.threadsPerCore();
    core = new int[nrCpus];
    llc = new int[nrCpus];
    pkg = new int[nrCpus];
    node = new int[nrCpus];
    int coresPerLlc = spec.coresPerLlc() <= 0 ? spec.coresPerSocket() : spec.coresPerLlc();
    int nodesPerSocket = Math.max(1, spec.numaNodesPerSocket());
    int coresPerNode = Math.max(1, spec.coresPerSocket() / nodesPerSocket);
    for (int cpu = 0; cpu < nrCpus; cpu++) {
      int c = cpu % cores;
      int s = c / spec.coresPerSocket();
      int inSocket = c % spec.coresPerSocket();
      core[cpu] = c;
      pkg[cpu] = s;
      llc[cpu] = c / coresPerLlc;
      node[cpu] = s * nodesPerSocket + Math.min(nodesPerSocket - 1, inSocket / coresPerNode);
    }
  }

  /** Number of CPUs. */
  public int nrCpus() {
    return nrCpus;
  }

  /** Core id of {@code cpu}. */
  public int core(int cpu) {
    return core[cpu];
  }

  /** LLC id of {@code cpu}. */
  public int llc(int cpu) {
    return llc[cpu];
  }

  /** Package id of {@code cpu}. */
  public int pkg(int cpu) {
    return pkg[cpu];
  }

  /** NUMA node of {@code cpu}. */
  public int node(int cpu) {
    return node[cpu];
  }
}
