package dev.schedlab.classes;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * The slow path of {@code select_task_rq_fair()} for new tasks: {@code
 * sched_balance_find_dst_cpu()} from the top domain down.
 *
 * <p>Models: {@code sched_balance_find_dst_group()} with {@code update_sg_wakeup_stats()} (the
 * group's statistics without the task, group types, misfit on domains of mixed capacity) and {@code
 * update_pick_idlest()} (most idle CPUs then lowest util; lowest avg_load with the imbalance
 * margins; NUMA's preference to stay local); {@code sched_balance_find_dst_group_cpu()} (the idle
 * CPU in the shallowest idle state, the most recently idled at equal depth, else the least loaded).
 * With {@code feature.FIND_IDLEST_BY_LOAD} (kernels before v5.5) the group and the CPU are chosen
 * as v4.17's {@code find_idlest_group()} and {@code find_idlest_group_cpu()} did, by runnable load
 * and avg_load ({@link FairForkByLoad}); the descent through the domains is the same in both
 * ({@code find_idlest_cpu()}).
 *
 * <p>The descent starts at the highest domain with SD_BALANCE_FORK ({@link FairSelect}'s domain
 * walk: a NUMA level beyond the reclaim distance has none).
 *
 * <p>Does not model: NUMA preferred nodes and {@code imb_numa_nr}, core-scheduling cookies.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code sched_balance_find_dst_cpu}, {@code
 * sched_balance_find_dst_group}, {@code update_sg_wakeup_stats}, {@code update_pick_idlest}, {@code
 * sched_balance_find_dst_group_cpu}); before v5.5 {@code find_idlest_cpu}, {@code
 * find_idlest_group}, {@code find_idlest_group_cpu} (57abff067a08 "sched/fair: Rework
 * find_idlest_group()").
 */
final class FairForkPlacement {
  private final MachineView m;
  private final FairClass fair;
  private final FairProbe probe;
  private final GroupStats local = new GroupStats();
  private final GroupStats idlest = new GroupStats();
  private final GroupStats tmp = new GroupStats();

  /** {@code feature.FIND_IDLEST_BY_LOAD}: the group and CPU choices of v4.17, or null (v5.5+). */
  private final @Nullable FairForkByLoad byLoad;

  FairForkPlacement(MachineView m, FairClass fair, FairProbe probe, boolean findIdlestByLoad) {
    this.m = m;
    this.fair = fair;
    this.probe = probe;
    this.byLoad = findIdlestByLoad ? new FairForkByLoad(m, fair, probe) : null;
  }

  int findDstCpu(SchedDomainView top, TaskView p, int cpu, int prevCpu) {
    if (!intersectsAllowed(top, p)) {
      return prevCpu;
    }
    int newCpu = cpu;
    SchedDomainView sd = top;
    int level = levelOf(cpu, top);
    while (sd != null) {
      int group = byLoad != null ? byLoad.findIdlestGroup(sd, p, cpu) : findDstGroup(sd, p, cpu);
      if (group < 0) {
        level--;
        sd = level >= 0 ? m.domain(cpu, level) : null;
        continue;
      }
      newCpu =
          byLoad != null
              ? byLoad.findIdlestGroupCpu(sd, group, p, cpu)
              : findDstGroupCpu(sd, group, p, cpu);
      if (newCpu == cpu) {
        level--;
        sd = level >= 0 ? m.domain(cpu, level) : null;
        continue;
      }
      // Balance at the levels of new_cpu below the one just used.
      int weight = sd.weight();
      cpu = newCpu;
      sd = null;
      level = -1;
      int n = m.nrDomains(cpu);
      for (int l = 0; l < n; l++) {
        if (weight <= m.domain(cpu, l).weight()) {
          break;
        }
        sd = m.domain(cpu, l);
        level = l;
      }
    }
    return newCpu;
  }

  private int levelOf(int cpu, SchedDomainView sd) {
    int n = m.nrDomains(cpu);
    for (int l = 0; l < n; l++) {
      if (m.domain(cpu, l) == sd) {
        return l;
      }
    }
    return -1;
  }

  /** {@code sched_balance_find_dst_group()}: the idlest group, or -1 to stay local. */
  private int findDstGroup(SchedDomainView sd, TaskView p, int thisCpu) {
    int idlestGroup = -1;
    int localGroup = -1;
    idlest.reset();
    idlest.avgLoad = Long.MAX_VALUE;
    idlest.type = GroupStats.OVERLOADED;
    for (int g = 0; g < sd.nrGroups(); g++) {
      if (!groupIntersectsAllowed(sd, g, p)) {
        continue;
      }
      boolean isLocal = sd.groupNextCpu(g, thisCpu) == thisCpu;
      GroupStats sgs = isLocal ? local : tmp;
      wakeupStats(sd, g, sgs, p);
      if (isLocal) {
        localGroup = g;
      } else if (pickIdlest(sd, idlestGroup, g, sgs)) {
        idlestGroup = g;
        idlest.copyFrom(sgs);
      }
    }
    if (idlestGroup < 0) {
      return -1;
    }
    if (localGroup < 0) {
      return idlestGroup;
    }
    if (local.type < idlest.type) {
      return -1;
    }
    if (local.type > idlest.type) {
      return idlestGroup;
    }
    switch (local.type) {
      case GroupStats.OVERLOADED, GroupStats.FULLY_BUSY -> {
        long imbalance = 1024L * (sd.imbalancePct() - 100) / 100;
        if (sd.numa() && idlest.avgLoad + imbalance >= local.avgLoad) {
          return -1;
        }
        if (idlest.avgLoad >= local.avgLoad + imbalance) {
          return -1;
        }
        if (100 * local.avgLoad <= (long) sd.imbalancePct() * idlest.avgLoad) {
          return -1;
        }
        return idlestGroup;
      }
      case GroupStats.MISFIT_TASK -> {
        return sd.groupMaxCapacity(localGroup) >= sd.groupMaxCapacity(idlestGroup)
            ? -1
            : idlestGroup;
      }
      case GroupStats.HAS_SPARE -> {
        return local.idleCpus >= idlest.idleCpus ? -1 : idlestGroup;
      }
      default -> {
        return -1;
      }
    }
  }

  /** {@code update_pick_idlest()}. */
  private boolean pickIdlest(SchedDomainView sd, int idlestGroup, int g, GroupStats sgs) {
    if (sgs.type < idlest.type) {
      return true;
    }
    if (sgs.type > idlest.type) {
      return false;
    }
    return switch (sgs.type) {
      case GroupStats.OVERLOADED, GroupStats.FULLY_BUSY -> idlest.avgLoad > sgs.avgLoad;
      case GroupStats.MISFIT_TASK ->
          idlestGroup < 0 || sd.groupMaxCapacity(idlestGroup) < sd.groupMaxCapacity(g);
      case GroupStats.HAS_SPARE ->
          idlest.idleCpus <= sgs.idleCpus
              && !(idlest.idleCpus == sgs.idleCpus && idlest.util <= sgs.util);
      default -> false;
    };
  }

  /** {@code update_sg_wakeup_stats()}: the group's statistics without {@code p}. */
  private void wakeupStats(SchedDomainView sd, int g, GroupStats sgs, TaskView p) {
    sgs.reset();
    boolean misfit = sd.asymCapacity();
    long pUtil = sd.asymCapacity() ? probe.taskUtilEst(p, false) : 0;
    FairEntity pe = FairClass.entityOf(p);
    int attachedCpu = pe != null && pe.attachedTo != null ? pe.attachedTo.cpu : -1;
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (!p.allowedOn(c)) {
        continue;
      }
      FairRq q = fair.rq(c);
      FairEntity attached = c == attachedCpu ? pe : null;
      sgs.load += Math.max(0, q.avg.loadAvg - (attached != null ? fair.taskHLoad(p) : 0));
      sgs.util += probe.cpuUtilWithout(c, attached);
      sgs.runnable +=
          Math.max(0, q.avg.runnableAvg - (attached != null ? attached.avg.runnableAvg : 0));
      int local = attached != null && attached.onRq ? 1 : 0;
      int nr = m.cpu(c).rq().nrRunning() - local;
      sgs.nrRunning += nr;
      if (nr == 0 && probe.idleWithout(c, p)) {
        sgs.idleCpus++;
      }
      if (misfit && FairProbe.fitsCapacity(pUtil, m.cpu(c).capacity())) {
        misfit = false;
      }
    }
    sgs.misfitLoad = misfit ? 1 : 0;
    sgs.capacity = sd.groupCapacity(g);
    sgs.weight = sd.groupWeight(g);
    sgs.classify(sd.imbalancePct());
    if (sgs.type == GroupStats.FULLY_BUSY || sgs.type == GroupStats.OVERLOADED) {
      sgs.avgLoad = sgs.load * 1024 / Math.max(1, sgs.capacity);
    }
  }

  /** {@code sched_balance_find_dst_group_cpu()}. */
  private int findDstGroupCpu(SchedDomainView sd, int g, TaskView p, int thisCpu) {
    if (sd.groupWeight(g) == 1) {
      return sd.groupNextCpu(g, 0);
    }
    long minLoad = Long.MAX_VALUE;
    long minExitLatency = Long.MAX_VALUE;
    long latestIdle = Long.MIN_VALUE;
    int leastLoaded = thisCpu;
    int shallowest = -1;
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (!p.allowedOn(c)) {
        continue;
      }
      if (probe.schedIdle(c)) {
        return c;
      }
      if (probe.idle(c)) {
        int state = m.cpu(c).idleStateIndex();
        long exit = state >= 0 ? m.idleStates().get(state).exitLatencyNs() : -1;
        long stamp = m.cpu(c).rq().idleStampNs();
        if (state >= 0 && exit < minExitLatency) {
          minExitLatency = exit;
          latestIdle = stamp;
          shallowest = c;
        } else if ((state < 0 || exit == minExitLatency) && stamp > latestIdle) {
          latestIdle = stamp;
          shallowest = c;
        }
      } else if (shallowest == -1) {
        long load = probe.cpuLoad(c);
        if (load < minLoad) {
          minLoad = load;
          leastLoaded = c;
        }
      }
    }
    return shallowest != -1 ? shallowest : leastLoaded;
  }

  private static boolean intersectsAllowed(SchedDomainView sd, TaskView p) {
    for (int c = sd.nextCpu(0); c >= 0; c = sd.nextCpu(c + 1)) {
      if (p.allowedOn(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean groupIntersectsAllowed(SchedDomainView sd, int g, TaskView p) {
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (p.allowedOn(c)) {
        return true;
      }
    }
    return false;
  }
}
