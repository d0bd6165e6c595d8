package dev.schedlab.classes;

import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;

/**
 * Fork placement before v5.5 ({@code feature.FIND_IDLEST_BY_LOAD}): the group and CPU choices of
 * {@code find_idlest_cpu()}'s descent as v4.17 made them, by load rather than by idle-CPU counts.
 *
 * <p>Models: {@code find_idlest_group()} for SD_BALANCE_FORK: per group the runnable load (the sum
 * of {@code source_load()} for the local group, {@code target_load()} for the others, at the
 * domain's {@code forkexec_idx}, which {@code sd_init()} leaves at 0 so that both are {@code
 * weighted_cpuload()} = the root cfs_rq's {@code runnable_load_avg}) and the avg_load (the root
 * cfs_rq's {@code load_avg}, blocked load included), both scaled by the group's capacity; a
 * non-local group becomes the idlest when its runnable load is lower by more than the imbalance
 * (1024 × (imbalance_pct − 100) / 100), or is within it and its avg_load is lower by the
 * imbalance_scale (100 + (imbalance_pct − 100) / 2 percent); the spare-capacity test is skipped (a
 * new task has no utilisation yet); on a NUMA domain the local group is kept when the idlest one's
 * runnable load plus the imbalance reaches the local one's; then the local group is kept when the
 * idlest is not lighter by the imbalance, or when the runnable loads are close and the local
 * avg_load is lower by the imbalance_scale. The comparisons are unsigned as in C (a local group the
 * task may not use counts as ULONG_MAX). {@code find_idlest_group_cpu()}: the only CPU of a one-CPU
 * group; among idle CPUs the one in the shallowest idle state, the most recently idled at equal
 * depth; else the one of least {@code weighted_cpuload()}, the forking CPU if none is lower. {@code
 * runnable_load_avg} (v4.17 keeps it per cfs_rq as the sum of its queued entities' {@code
 * runnable_load_avg}, equal to {@code load_avg} for a task) is computed from the queued entities'
 * PELT signals; a group entity counts its {@code load_avg} in the proportion of its runqueue's
 * runnable load to its load ({@code calc_group_runnable()}).
 *
 * <p>Does not model: {@code cpu_load[]} (only read at a non-zero index, which fork never uses),
 * exec and wakeup balancing through this path (there is no exec, no domain has SD_BALANCE_WAKE), a
 * delayed entity (v6.12+) counts as asleep.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} of v4.17 ({@code find_idlest_group}, {@code
 * find_idlest_group_cpu}, {@code find_idlest_cpu}, {@code source_load}, {@code target_load}, {@code
 * weighted_cpuload}), {@code kernel/sched/topology.c} ({@code sd_init}); replaced in v5.5 by
 * 57abff067a08 "sched/fair: Rework find_idlest_group()".
 */
final class FairForkByLoad {
  /** C's ULONG_MAX as an unsigned 64-bit value. */
  private static final long ULONG_MAX = -1L;

  /** {@code scale_load_down(NICE_0_LOAD)}. */
  private static final long NICE_0_LOAD = 1024;

  private final MachineView m;
  private final FairClass fair;
  private final FairProbe probe;

  FairForkByLoad(MachineView m, FairClass fair, FairProbe probe) {
    this.m = m;
    this.fair = fair;
    this.probe = probe;
  }

  /** {@code find_idlest_group()} with SD_BALANCE_FORK: the idlest group, or -1 to stay local. */
  int findIdlestGroup(SchedDomainView sd, TaskView p, int thisCpu) {
    int idlest = -1;
    long minRunnableLoad = ULONG_MAX;
    long thisRunnableLoad = ULONG_MAX;
    long minAvgLoad = ULONG_MAX;
    long thisAvgLoad = ULONG_MAX;
    int imbalanceScale = 100 + (sd.imbalancePct() - 100) / 2;
    long imbalance = NICE_0_LOAD * (sd.imbalancePct() - 100) / 100;
    for (int g = 0; g < sd.nrGroups(); g++) {
      if (!allowedIn(sd, g, p)) {
        continue;
      }
      boolean local = sd.groupNextCpu(g, thisCpu) == thisCpu;
      long avgLoad = 0;
      long runnableLoad = 0;
      for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
        runnableLoad += probe.cpuRunnableLoad(c);
        avgLoad += fair.rq(c).avg.loadAvg;
      }
      long capacity = Math.max(1, sd.groupCapacity(g));
      avgLoad = avgLoad * SchedAvg.CAPACITY_SCALE / capacity;
      runnableLoad = runnableLoad * SchedAvg.CAPACITY_SCALE / capacity;
      if (local) {
        thisRunnableLoad = runnableLoad;
        thisAvgLoad = avgLoad;
      } else if (gt(minRunnableLoad, runnableLoad + imbalance)) {
        minRunnableLoad = runnableLoad; // lighter by more than the imbalance
        minAvgLoad = avgLoad;
        idlest = g;
      } else if (lt(runnableLoad, minRunnableLoad + imbalance)
          && gt(100 * minAvgLoad, imbalanceScale * avgLoad)) {
        minAvgLoad = avgLoad; // close runnable loads: the blocked load decides
        idlest = g;
      }
    }
    if (idlest < 0) {
      return -1;
    }
    if (sd.numa() && !lt(minRunnableLoad + imbalance, thisRunnableLoad)) {
      return -1; // across nodes, stay local unless the remote one is lighter by the imbalance
    }
    if (gt(minRunnableLoad, thisRunnableLoad + imbalance)) {
      return -1;
    }
    if (lt(thisRunnableLoad, minRunnableLoad + imbalance)
        && lt(100 * thisAvgLoad, imbalanceScale * minAvgLoad)) {
      return -1;
    }
    return idlest;
  }

  /** {@code find_idlest_group_cpu()}. */
  int findIdlestGroupCpu(SchedDomainView sd, int g, TaskView p, int thisCpu) {
    if (sd.groupWeight(g) == 1) {
      return sd.groupNextCpu(g, 0);
    }
    long minLoad = ULONG_MAX;
    long minExitLatency = Long.MAX_VALUE;
    long latestIdle = 0;
    int leastLoaded = thisCpu;
    int shallowest = -1;
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (!p.allowedOn(c)) {
        continue;
      }
      if (probe.idle(c)) {
        int state = m.cpu(c).idleStateIndex();
        long stamp = m.cpu(c).rq().idleStampNs();
        long exit = state >= 0 ? m.idleStates().get(state).exitLatencyNs() : -1;
        if (state >= 0 && exit < minExitLatency) {
          minExitLatency = exit;
          latestIdle = stamp;
          shallowest = c;
        } else if ((state < 0 || exit == minExitLatency) && stamp > latestIdle) {
          latestIdle = stamp;
          shallowest = c;
        }
      } else if (shallowest == -1) {
        long load = probe.cpuRunnableLoad(c);
        if (lt(load, minLoad)) {
          minLoad = load;
          leastLoaded = c;
        }
      }
    }
    return shallowest != -1 ? shallowest : leastLoaded;
  }

  private static boolean allowedIn(SchedDomainView sd, int g, TaskView p) {
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (p.allowedOn(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean gt(long a, long b) {
    return Long.compareUnsigned(a, b) > 0;
  }

  private static boolean lt(long a, long b) {
    return Long.compareUnsigned(a, b) < 0;
  }
}
