package dev.schedlab.classes;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;

/**
 * v4.17's wakeup scans: SIS_PROP's scan depth, and the end of {@code select_idle_sibling()} as v4.9
 * to v5.11 had it ({@code select_idle_core()}, {@code select_idle_cpu()}, {@code select_idle_smt()}
 * of the target, one after the other).
 *
 * <p>Models: SIS_PROP ({@code feature.SIS_PROP}): the scan may probe {@code nr - 1} CPUs, where
 * {@code nr} is the LLC's span weight times the waker CPU's {@code rq->avg_idle / 512}, divided by
 * the waker's LLC domain's {@code avg_scan_cost + 1}, and at least 4; {@code avg_scan_cost} moves
 * by an eighth of the difference to each completed scan's own time (the CPUs it probed at {@code
 * cost.sis_per_cpu}; a scan cut short by the depth leaves it unchanged, as v4.17's early {@code
 * return -1} does). With {@code feature.SIS_CORE_CPU_SMT}: {@code select_idle_core()} over the LLC
 * from the target while {@code has_idle_cores} (every thread of each core probed, the hint cleared
 * when none is idle), then {@code select_idle_cpu()} from the target itself (the depth counted down
 * before the affinity test), then {@code select_idle_smt()}: the first idle thread of the target's
 * own core. {@code idle_cpu()} of v4.17 is the engine's idle test ({@code curr} is the idle task,
 * nothing queued, no pending wake list): a CPU spinning before idle is busy.
 *
 * <p>Does not model: SIS_AVG_CPU (off in v4.17's {@code features.h}); the real clock of the scan
 * (its time is the modelled probe cost).
 *
 * <p>Kernel reference: v4.17 {@code kernel/sched/fair.c} ({@code select_idle_core}, {@code
 * select_idle_smt}, {@code select_idle_cpu}, {@code select_idle_sibling}); 1ad3aaf3fcd2
 * ("sched/core: Implement new approach to scale select_idle_cpu()", v4.11: SIS_PROP); 10e2f1acd010
 * ("sched/core: Rewrite and improve select_idle_siblings()", v4.9); v5.12's 9fe1f127b913
 * ("sched/fair: Merge select_idle_core/cpu()") replaced the three scans with one.
 */
final class FairSelectIdle417 {
  private final MachineView m;
  private final SchedServices services;
  private final FairProbe probe;
  private final long sisPerCpu;

  /** {@code avg_scan_cost} of each CPU's own LLC domain ({@code this_sd}), ns. */
  private final long[] avgScanCost;

  /** CPUs {@code select_idle_core()} has taken out of its mask. */
  private final BitSet seen = new BitSet();

  FairSelectIdle417(MachineView m, SchedServices services, FairProbe probe) {
    this.m = m;
    this.services = services;
    this.probe = probe;
    this.sisPerCpu = services.param("cost.sis_per_cpu");
    this.avgScanCost = new long[m.nrCpus()];
  }

  /** SIS_PROP's {@code nr}: the scan gives up when the count reaches 0, so it probes nr - 1. */
  int propDepth(int thisCpu, SchedDomainView llc) {
    long avgIdle = m.cpu(thisCpu).rq().avgIdleNs() / 512;
    long avgCost = avgScanCost[thisCpu] + 1;
    long spanAvg = llc.weight() * avgIdle;
    long nr = spanAvg > 4 * avgCost ? spanAvg / avgCost : 4;
    return (int) Math.min(nr, Integer.MAX_VALUE);
  }

  /** {@code this_sd->avg_scan_cost += (time - cost) / 8} after a completed scan. */
  void scanDone(int thisCpu, long timeNs) {
    avgScanCost[thisCpu] += (timeNs - avgScanCost[thisCpu]) / 8;
  }

  /**
   * From {@code select_idle_core()} on, {@code select_idle_cpu()} with the scan depth {@code nr}
   * (SIS_PROP's, SIS_UTIL's or unlimited); {@code target} when nothing idle is found.
   */
  int selectIdleTail(TaskView p, SchedDomainView llc, int target, int thisCpu, int nr) {
    int i = selectIdleCore(p, llc, target);
    if (i >= 0) {
      return i;
    }
    i = selectIdleCpu(p, llc, target, thisCpu, nr);
    if (i >= 0) {
      return i;
    }
    i = selectIdleSmt(p, target);
    return i >= 0 ? i : target;
  }

  private int selectIdleCore(TaskView p, SchedDomainView llc, int target) {
    if (!m.smtActive() || !m.llcHasIdleCores(target)) {
      return -1;
    }
    seen.clear();
    int probed = 0;
    int found = -1;
    for (int pass = 0; pass < 2 && found < 0; pass++) {
      int from = pass == 0 ? target : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target;
      for (int c = llc.nextCpu(from); c >= 0 && c < to; c = llc.nextCpu(c + 1)) {
        if (!p.allowedOn(c) || seen.get(c)) {
          continue;
        }
        boolean idle = true;
        int n = m.smtWeight(c);
        for (int t = 0; t < n; t++) {
          int s = m.smtSibling(c, t);
          seen.set(s);
          probed++;
          idle &= probe.idle(s);
        }
        if (idle) {
          found = c;
          break;
        }
      }
    }
    services.addPathCost(probed * sisPerCpu);
    if (found < 0) {
      services.setLlcHasIdleCores(target, false);
    }
    return found;
  }

  /** {@code select_idle_cpu()}: from target, wrapping, giving up when {@code nr} counts down. */
  private int selectIdleCpu(TaskView p, SchedDomainView llc, int target, int thisCpu, int nr) {
    int probed = 0;
    for (int pass = 0; pass < 2; pass++) {
      int from = pass == 0 ? target : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target;
      for (int c = llc.nextCpu(from); c >= 0 && c < to; c = llc.nextCpu(c + 1)) {
        if (--nr <= 0) {
          services.addPathCost(probed * sisPerCpu);
          return -1;
        }
        if (!p.allowedOn(c)) {
          continue;
        }
        probed++;
        if (probe.idle(c)) {
          finishScan(thisCpu, probed);
          return c;
        }
      }
    }
    finishScan(thisCpu, probed);
    return -1;
  }

  private void finishScan(int thisCpu, int probed) {
    services.addPathCost(probed * sisPerCpu);
    scanDone(thisCpu, probed * sisPerCpu);
  }

  private int selectIdleSmt(TaskView p, int target) {
    if (!m.smtActive()) {
      return -1;
    }
    int n = m.smtWeight(target);
    int probed = 0;
    int found = -1;
    for (int t = 0; t < n && found < 0; t++) {
      int c = m.smtSibling(target, t);
      if (p.allowedOn(c)) {
        probed++;
        if (probe.idle(c)) {
          found = c;
        }
      }
    }
    services.addPathCost(probed * sisPerCpu);
    return found;
  }
}
