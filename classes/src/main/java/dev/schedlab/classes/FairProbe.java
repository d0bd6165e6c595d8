package dev.schedlab.classes;

import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * What placement reads of a CPU: idle or SCHED_IDLE-only, fair load and utilisation with or without
 * a task's part, a task's estimated utilisation.
 *
 * <p>Models: {@code available_idle_cpu()} (as {@code idle_cpu()}), {@code sched_idle_cpu()}, {@code
 * idle_cpu_without()}, {@code cpu_load()}, {@code cpu_util_without()} with util_est, {@code
 * task_util_est()} after {@code sync_entity_load_avg()}, {@code fits_capacity()}.
 *
 * <p>Does not model: uclamp ({@code util_fits_cpu()} is {@code fits_capacity()} of the utilisation
 * alone) and energy-aware placement.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c}.
 */
final class FairProbe {
  private final MachineView m;
  private final FairClass fair;

  FairProbe(MachineView m, FairClass fair) {
    this.m = m;
    this.fair = fair;
  }

  boolean idle(int cpu) {
    return m.cpuIdle(cpu);
  }

  boolean schedIdle(int cpu) {
    int idlePolicy = fair.nrIdlePolicy[cpu]; // read first: no CPU state touched when it is 0
    return idlePolicy > 0 && m.cpu(cpu).rq().nrRunning() == idlePolicy;
  }

  boolean idleOrSchedIdle(int cpu) {
    return idle(cpu) || schedIdle(cpu);
  }

  boolean idleWithout(int cpu, TaskView p) {
    TaskView curr = m.cpu(cpu).rq().curr();
    if (!curr.isIdleTask() && curr != p) {
      return false;
    }
    return !m.cpu(cpu).rq().ttwuPending();
  }

  long cpuLoad(int cpu) {
    return fair.rq(cpu).avg.loadAvg;
  }

  /**
   * v4.17's {@code weighted_cpuload()}: the root cfs_rq's {@code runnable_load_avg}, the queued
   * entities' load without the blocked load {@link #cpuLoad} counts (read by the pre-v5.5 fork and
   * wakeup placement).
   */
  long cpuRunnableLoad(int cpu) {
    return runnableLoadAvg(fair.rq(cpu));
  }

  /** v4.17's {@code cfs_rq->runnable_load_avg}: the queued entities' runnable load. */
  static long runnableLoadAvg(FairRq q) {
    long sum = 0;
    for (FairEntity e = q.tree.first(); e != null; e = FairTimeline.next(e)) {
      sum += entityRunnableLoad(e);
    }
    FairEntity curr = q.curr;
    if (curr != null && curr.onRq && !curr.inTree) {
      sum += entityRunnableLoad(curr);
    }
    return sum;
  }

  private static long entityRunnableLoad(FairEntity se) {
    if (!se.onRq || se.delayed) {
      return 0;
    }
    FairRq my = se.myQ;
    if (my == null) {
      return se.avg.loadAvg; // a task's runnable weight is its weight
    }
    long load = my.avg.loadAvg;
    long runnable = Math.min(runnableLoadAvg(my), load);
    return load == 0 ? se.avg.loadAvg : se.avg.loadAvg * runnable / load;
  }

  long cpuUtilWithout(int cpu, @Nullable FairEntity pe) {
    FairRq q = fair.rq(cpu);
    long util = q.avg.utilAvg;
    long est = q.avg.utilEst;
    if (pe != null) {
      util = Math.max(0, util - pe.avg.utilAvg);
      if (pe.onRq) {
        est = Math.max(0, est - pe.avg.utilEst);
      }
    }
    return Math.min(Math.max(util, est), m.cpu(cpu).capacityOrig());
  }

  /** {@link #cpuUtilWithout} without {@code util_est}: the root's {@code util_avg} alone. */
  long cpuUtilAvgWithout(int cpu, @Nullable FairEntity pe) {
    long util = fair.rq(cpu).avg.utilAvg;
    if (pe != null) {
      util = Math.max(0, util - pe.avg.utilAvg);
    }
    return Math.min(util, m.cpu(cpu).capacityOrig());
  }

  long taskUtilEst(TaskView p, boolean sync) {
    FairEntity pe = FairClass.entityOf(p);
    if (pe == null) {
      return 0;
    }
    if (sync) {
      FairPelt.sync(pe);
    }
    return Math.max(pe.avg.utilAvg, pe.avg.utilEst);
  }

  static boolean fitsCapacity(long util, long capacity) {
    return util * 1280 < capacity * 1024;
  }
}
