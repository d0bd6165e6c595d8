package dev.schedlab.engine.core;

import java.util.BitSet;

/**
 * {@code struct sched_domain_shared} of each LLC: the {@code has_idle_cores} hint and SIS_UTIL's
 * {@code nr_idle_scan}.
 *
 * <p>Models: {@code __update_idle_core()} (set when a CPU goes idle and its whole core is idle;
 * wakeup scans clear it); {@code nr_idle_scan} written by the load balance of the LLC's domain. A
 * run starts as on a machine that has been idle: every core idle, and a scan depth of the LLC's
 * housekeeping CPUs (what {@code update_idle_cpu_scan()} gives an LLC without utilisation).
 *
 * <p>Does not model: the LLC's {@code nr_busy_cpus}.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code __update_idle_core}, {@code
 * set_idle_cores}, {@code update_idle_cpu_scan}).
 */
final class LlcShared {
  final boolean[] hasIdleCores;
  final int[] nrIdleScan;

  /** CPUs of each LLC, ascending, and how many of them run their idle task. */
  final int[][] llcCpus;

  final int[] llcIdle;
  private final boolean smt;

  LlcShared(Cpu[] cpus, BitSet housekeeping, boolean smt) {
    int llcs = 0;
    for (Cpu c : cpus) {
      llcs = Math.max(llcs, c.llcId + 1);
    }
    hasIdleCores = new boolean[llcs];
    nrIdleScan = new int[llcs];
    this.smt = smt;
    for (Cpu c : cpus) {
      hasIdleCores[c.llcId] = true;
      nrIdleScan[c.llcId] += housekeeping.get(c.id) ? 1 : 0;
    }
    this.llcIdle = new int[llcs];
    this.llcCpus = new int[llcs][];
    for (int l = 0; l < llcs; l++) {
      final int id = l;
      llcCpus[l] =
          java.util.Arrays.stream(cpus).filter(c -> c.llcId == id).mapToInt(c -> c.id).toArray();
      llcIdle[l] = llcCpus[l].length;
    }
  }

  boolean hasIdleCores(Cpu cpu) {
    return smt && hasIdleCores[cpu.llcId];
  }

  /** {@code __update_idle_core()}: {@code cpu} went idle; is its whole core idle now? */
  void updateIdleCore(Cpu cpu) {
    if (!smt || hasIdleCores[cpu.llcId]) {
      return;
    }
    for (Cpu s : cpu.siblings) {
      if (s != cpu && !s.isIdle()) {
        return;
      }
    }
    hasIdleCores[cpu.llcId] = true;
  }
}
