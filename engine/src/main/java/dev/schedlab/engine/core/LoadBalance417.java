package dev.schedlab.engine.core;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * One {@code load_balance()} pass as v4.17 does it ({@code feature.LB_AVG_LOAD}): groups classified
 * by load, the imbalance in weighted load per capacity, tasks moved by their load.
 *
 * <p>Models: {@code update_sd_lb_stats()} (the local group first, prefer-sibling marking a group
 * with more than one task over the local one as without capacity) and {@code update_sg_lb_stats()}
 * (runnable load, {@code weighted_cpuload()}, util with util_est, fair task count, idle CPUs,
 * {@code load_per_task}, {@code avg_load}); {@code group_classify()} into group_other,
 * group_imbalanced ({@code sgc->imbalance}) and group_overloaded ({@code group_is_overloaded()});
 * {@code update_sd_pick_busiest()}; {@code find_busiest_group()}'s checks in its order; {@code
 * calculate_imbalance()} with {@code load_above_capacity} and {@code fix_small_imbalance()}; {@code
 * find_busiest_queue()} by weighted load per capacity; {@code detach_tasks()} by {@code
 * task_h_load()} against the imbalance (skipping a task whose half load exceeds it, at most {@code
 * sysctl_sched_nr_migrate} tasks looked at); {@code can_migrate_task()} with LBF_ALL_PINNED (the
 * busiest CPU left out and the pass redone) and LBF_SOME_PINNED (the parent level's group marked
 * imbalanced); {@code need_active_balance()}; the balance interval doubled when nothing was
 * unbalanced, newidle passes included (until 3f130a37c442 in v5.1).
 *
 * <p>Does not model: the decayed {@code cpu_load[]} indexes ({@code source_load()} and {@code
 * target_load()} read the instant {@code weighted_cpuload()}, as v4.17 does at index 0: newidle
 * passes and the SMT and MC levels of an idle CPU), asym packing, the LBF_DST_PINNED retry with
 * another destination CPU, NUMA balancing's {@code fbq_type}, {@code CACHE_HOT_BUDDY}, {@code
 * should_we_balance()} (as the v6.12 path).
 *
 * <p>Kernel reference: v4.17 {@code kernel/sched/fair.c} ({@code load_balance}, {@code
 * find_busiest_group}, {@code update_sd_lb_stats}, {@code update_sg_lb_stats}, {@code
 * group_classify}, {@code update_sd_pick_busiest}, {@code calculate_imbalance}, {@code
 * fix_small_imbalance}, {@code find_busiest_queue}, {@code detach_tasks}, {@code can_migrate_task},
 * {@code need_active_balance}); v5.5's 0b0695f2b34a "sched/fair: Rework load_balance()" replaced
 * them with group types and migration types.
 */
final class LoadBalance417 {
  static final int GROUP_OTHER = 0;
  static final int GROUP_IMBALANCED = 1;
  static final int GROUP_OVERLOADED = 2;

  /** {@code MAX_PINNED_INTERVAL} (ms): the interval's cap after an all-pinned pass. */
  static final long MAX_PINNED_INTERVAL_MS = 512;

  /** v4.17's {@code struct sg_lb_stats}. */
  static final class Sg {
    long avgLoad;
    long groupLoad;
    long loadPerTask;
    long sumWeightedLoad;
    long groupCapacity;
    long groupUtil;
    long minCapacity;
    int sumNrRunning;
    int idleCpus;
    int groupWeight;
    int groupType;
    boolean noCapacity;

    void reset() {
      avgLoad = 0;
      groupLoad = 0;
      loadPerTask = 0;
      sumWeightedLoad = 0;
      groupCapacity = 0;
      groupUtil = 0;
      minCapacity = Long.MAX_VALUE;
      sumNrRunning = 0;
      idleCpus = 0;
      groupWeight = 0;
      groupType = GROUP_OTHER;
      noCapacity = false;
    }

    void copyFrom(Sg o) {
      avgLoad = o.avgLoad;
      groupLoad = o.groupLoad;
      loadPerTask = o.loadPerTask;
      sumWeightedLoad = o.sumWeightedLoad;
      groupCapacity = o.groupCapacity;
      groupUtil = o.groupUtil;
      minCapacity = o.minCapacity;
      sumNrRunning = o.sumNrRunning;
      idleCpus = o.idleCpus;
      groupWeight = o.groupWeight;
      groupType = o.groupType;
      noCapacity = o.noCapacity;
    }

    /** {@code group_has_capacity()} of v4.17. */
    boolean hasCapacity(int imbalancePct) {
      return sumNrRunning < groupWeight || groupCapacity * 100 > groupUtil * imbalancePct;
    }

    /** {@code group_is_overloaded()} of v4.17. */
    boolean isOverloaded(int imbalancePct) {
      return sumNrRunning > groupWeight && groupCapacity * 100 < groupUtil * imbalancePct;
    }
  }

  private final Kernel k;
  private final LoadBalancer lb;
  final Sg local = new Sg();
  final Sg busiest = new Sg();
  private final Sg sgs = new Sg();
  private final GroupStats hookLocal = new GroupStats();
  private final GroupStats hookBusiest = new GroupStats();

  /** {@code env->cpus}: CPUs left out of this pass after an all-pinned busiest one. */
  private final BitSet excluded = new BitSet();

  int localGroup;
  int busiestGroup;
  long totalLoad;
  long totalCapacity;

  /** {@code sds->avg_load}. */
  long avgLoad;

  /** {@code env->imbalance}: weighted load to move. */
  long imbalance;

  boolean allPinned;
  boolean somePinned;

  LoadBalance417(Kernel k, LoadBalancer lb) {
    this.k = k;
    this.lb = lb;
  }

  /** {@code load_balance()} of {@code dst} at {@code sd}; returns whether a task moved. */
  boolean loadBalance(Cpu dst, SchedDomain sd, int idle) {
    excluded.clear();
    allPinned = false;
    GroupCapacity parentGroup = parentGroup(dst, sd);
    while (true) {
      int group = findBusiestGroup(dst, sd, idle);
      Cpu src = group < 0 ? null : findBusiestQueue(sd, sd.groups[group]);
      if (src == null) {
        if (parentGroup != null && !allPinned) {
          parentGroup.imbalance = false; // out_balanced
        }
        sd.nrBalanceFailed = 0;
        outOnePinned(sd);
        return false;
      }
      int moved = 0;
      if (src.nrRunning > 1) {
        allPinned = true;
        somePinned = false;
        moved = detachTasks(src, dst, sd, idle);
        if (parentGroup != null && somePinned && imbalance > 0) {
          parentGroup.imbalance = true;
        }
        if (allPinned) {
          excluded.set(src.id);
          if (spanLeftBeyond(sd, sd.groups[localGroup])) {
            continue; // redo without the busiest CPU
          }
          sd.nrBalanceFailed = 0; // out_all_pinned
          outOnePinned(sd);
          return false;
        }
      }
      return afterPull(src, dst, sd, idle, moved);
    }
  }

  /** The tail of {@code load_balance()}: failure count, active balance, the interval. */
  private boolean afterPull(Cpu src, Cpu dst, SchedDomain sd, int idle, int moved) {
    boolean active = false;
    if (moved == 0) {
      if (idle != LoadBalancer.CPU_NEWLY_IDLE) {
        sd.nrBalanceFailed++;
      }
      if (needActiveBalance(src, dst, sd, idle)) {
        if (!src.curr.allowed.get(dst.id)) {
          allPinned = true;
          outOnePinned(sd);
          return false;
        }
        if (!src.activeBalance && !src.curr.idleTask) {
          src.activeBalance = true;
          src.pushCpu = dst.id;
          active = true;
          lb.stopOneCpu(src);
        }
        sd.nrBalanceFailed = LoadBalancer.cacheNiceTries(sd) + 1; // force task migration
      }
    } else {
      sd.nrBalanceFailed = 0;
    }
    if (!active) {
      sd.balanceIntervalMs = sd.minIntervalMs;
    } else if (sd.balanceIntervalMs < sd.maxIntervalMs) {
      sd.balanceIntervalMs *= 2;
    }
    return moved > 0;
  }

  /** {@code out_one_pinned}: tune up the balancing interval (newidle passes too, in v4.17). */
  private void outOnePinned(SchedDomain sd) {
    if ((allPinned && sd.balanceIntervalMs < MAX_PINNED_INTERVAL_MS)
        || sd.balanceIntervalMs < sd.maxIntervalMs) {
      sd.balanceIntervalMs *= 2;
    }
  }

  /** {@code need_active_balance()} of v4.17 (no asym packing). */
  private static boolean needActiveBalance(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    if (idle != LoadBalancer.CPU_NOT_IDLE
        && src.fairNr == 1
        && LbEnv.checkCpuCapacity(src, sd)
        && src.capacity * sd.imbalancePct < dst.capacity * 100) {
      return true;
    }
    return sd.nrBalanceFailed > LoadBalancer.cacheNiceTries(sd) + 2;
  }

  /** {@code sd->parent->groups->sgc}: the parent level's group of {@code sd}'s span, or null. */
  private static @Nullable GroupCapacity parentGroup(Cpu dst, SchedDomain sd) {
    for (int i = 0; i + 1 < dst.domains.length; i++) {
      if (dst.domains[i] == sd) {
        SchedDomain parent = dst.domains[i + 1];
        return parent.groupCaps[parent.groupOf(dst.id)];
      }
    }
    return null;
  }

  /** {@code !cpumask_subset(env->cpus, env->dst_grpmask)}: CPUs left outside the local group. */
  private boolean spanLeftBeyond(SchedDomain sd, BitSet localSpan) {
    for (int i = sd.span.nextSetBit(0); i >= 0; i = sd.span.nextSetBit(i + 1)) {
      if (!excluded.get(i) && !localSpan.get(i)) {
        return true;
      }
    }
    return false;
  }

  /** {@code find_busiest_group()}: the busiest group's index, or -1 when balanced. */
  int findBusiestGroup(Cpu dst, SchedDomain sd, int idle) {
    imbalance = 0;
    updateSdLbStats(dst, sd);
    if (busiestGroup >= 0 && busiest.sumNrRunning > 0) {
      avgLoad = SchedAvg.CAPACITY_SCALE * totalLoad / Math.max(1, totalCapacity);
      if (forceBalance(sd, idle)) {
        calculateImbalance(dst);
      }
    }
    imbalance =
        k.ext
            .loadBalance()
            .imbalance(
                dst,
                sd,
                idle,
                hookStats(local, hookLocal),
                busiestGroup < 0 ? null : hookStats(busiest, hookBusiest),
                LbEnv.MIGRATE_LOAD,
                imbalance); // H17
    return imbalance > 0 && busiestGroup >= 0 ? busiestGroup : -1;
  }

  /** {@code find_busiest_group()}'s checks, in v4.17's order: whether to calculate an imbalance. */
  private boolean forceBalance(SchedDomain sd, int idle) {
    if (busiest.groupType == GROUP_IMBALANCED) {
      return true; // the group-wide averages cannot be trusted: force
    }
    if (idle != LoadBalancer.CPU_NOT_IDLE
        && local.hasCapacity(sd.imbalancePct)
        && busiest.noCapacity) {
      return true; // SD_BALANCE_NEWIDLE trumps SMP nice: an idle CPU pulls from a full group
    }
    if (local.avgLoad >= busiest.avgLoad || local.avgLoad >= avgLoad) {
      return false;
    }
    if (idle == LoadBalancer.CPU_IDLE) {
      // not overloaded and about as many idle CPUs: moving would only move the imbalance
      return busiest.groupType == GROUP_OVERLOADED || local.idleCpus > busiest.idleCpus + 1;
    }
    return 100 * busiest.avgLoad > (long) sd.imbalancePct * local.avgLoad;
  }

  /** {@code update_sd_lb_stats()}: the local group first (the kernel's {@code sd->groups}). */
  private void updateSdLbStats(Cpu dst, SchedDomain sd) {
    localGroup = sd.groupOf(dst.id);
    busiestGroup = -1;
    busiest.reset();
    totalLoad = 0;
    totalCapacity = 0;
    groupStats(sd, localGroup, local);
    add(local);
    boolean preferSibling = preferSibling(dst, sd);
    for (int g = 0; g < sd.groups.length; g++) {
      if (g == localGroup) {
        continue;
      }
      groupStats(sd, g, sgs);
      if (preferSibling
          && local.hasCapacity(sd.imbalancePct)
          && sgs.sumNrRunning > local.sumNrRunning + 1) {
        sgs.noCapacity = true;
        sgs.groupType = classify(sd, g, sgs);
      }
      if (pickBusiest(sd, sgs)) {
        busiestGroup = g;
        busiest.copyFrom(sgs);
      }
      add(sgs);
    }
  }

  private void add(Sg s) {
    totalLoad += s.groupLoad;
    totalCapacity += s.groupCapacity;
  }

  /** {@code update_sg_lb_stats()} at load index 0. */
  private void groupStats(SchedDomain sd, int g, Sg s) {
    s.reset();
    BitSet group = sd.groups[g];
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      if (excluded.get(i)) {
        continue;
      }
      Cpu c = k.cpus[i];
      long load = weightedCpuload(c);
      s.groupLoad += load;
      s.groupUtil += cpuUtil(c);
      s.sumNrRunning += c.fairNr;
      s.sumWeightedLoad += load;
      if (c.nrRunning == 0 && c.isIdle()) {
        s.idleCpus++;
      }
      s.minCapacity = Math.min(s.minCapacity, c.capacity);
    }
    s.groupCapacity = Math.max(1, sd.groupCaps[g].capacity());
    s.avgLoad = s.groupLoad * SchedAvg.CAPACITY_SCALE / s.groupCapacity;
    if (s.sumNrRunning > 0) {
      s.loadPerTask = s.sumWeightedLoad / s.sumNrRunning;
    }
    s.groupWeight = sd.groupCaps[g].weight;
    s.noCapacity = s.isOverloaded(sd.imbalancePct);
    s.groupType = classify(sd, g, s);
  }

  /** {@code group_classify()} of v4.17. */
  private static int classify(SchedDomain sd, int g, Sg s) {
    if (s.noCapacity) {
      return GROUP_OVERLOADED;
    }
    return sd.groupCaps[g].imbalance ? GROUP_IMBALANCED : GROUP_OTHER;
  }

  /** {@code update_sd_pick_busiest()} of v4.17 (no asym packing). */
  private boolean pickBusiest(SchedDomain sd, Sg s) {
    if (s.groupType != busiest.groupType) {
      return s.groupType > busiest.groupType;
    }
    if (s.avgLoad <= busiest.avgLoad) {
      return false;
    }
    // SD_ASYM_CPUCAPACITY: keep a group of bigger CPUs that is not overcommitted
    return !(sd.asymCapacity
        && s.sumNrRunning <= s.groupWeight
        && local.minCapacity * 1280 < s.minCapacity * 1024);
  }

  /** {@code SD_PREFER_SIBLING} of the child: v4.17's {@code sd_init()} sets it on SMT and PKG. */
  private static boolean preferSibling(Cpu dst, SchedDomain sd) {
    for (int i = 1; i < dst.domains.length; i++) {
      if (dst.domains[i] == sd) {
        String child = dst.domains[i - 1].name;
        return "SMT".equals(child) || "PKG".equals(child);
      }
    }
    return false;
  }

  /** {@code calculate_imbalance()} of v4.17. */
  private void calculateImbalance(Cpu dst) {
    if (busiest.groupType == GROUP_IMBALANCED) {
      busiest.loadPerTask = Math.min(busiest.loadPerTask, avgLoad); // wider averages
    }
    if (busiest.avgLoad <= avgLoad || local.avgLoad >= avgLoad) {
      imbalance = 0;
      fixSmallImbalance(dst);
      return;
    }
    long loadAboveCapacity = Long.MAX_VALUE;
    if (busiest.groupType == GROUP_OVERLOADED && local.groupType == GROUP_OVERLOADED) {
      // no idle CPUs to fill: do not pull the busiest group below its capacity
      long l = (long) busiest.sumNrRunning * SchedAvg.CAPACITY_SCALE;
      if (l > busiest.groupCapacity) {
        loadAboveCapacity =
            (l - busiest.groupCapacity) * SchedAvg.CAPACITY_SCALE / busiest.groupCapacity;
      }
    }
    long maxPull = Math.min(busiest.avgLoad - avgLoad, loadAboveCapacity);
    imbalance =
        Math.min(maxPull * busiest.groupCapacity, (avgLoad - local.avgLoad) * local.groupCapacity)
            / SchedAvg.CAPACITY_SCALE;
    if (imbalance < busiest.loadPerTask) {
      fixSmallImbalance(dst);
    }
  }

  /**
   * {@code fix_small_imbalance()}: move one task's load when that narrows the gap or gains
   * throughput (capacity used before and after the move).
   */
  private void fixSmallImbalance(Cpu dst) {
    int imbn = 2;
    if (local.sumNrRunning == 0) {
      local.loadPerTask = dst.fairNr == 0 ? 0 : weightedCpuload(dst) / dst.fairNr;
    } else if (busiest.loadPerTask > local.loadPerTask) {
      imbn = 1;
    }
    long scale = SchedAvg.CAPACITY_SCALE;
    long scaledBusyLoadPerTask = busiest.loadPerTask * scale / busiest.groupCapacity;
    if (busiest.avgLoad + scaledBusyLoadPerTask >= local.avgLoad + scaledBusyLoadPerTask * imbn) {
      imbalance = busiest.loadPerTask;
      return;
    }
    long capaNow =
        (busiest.groupCapacity * Math.min(busiest.loadPerTask, busiest.avgLoad)
                + local.groupCapacity * Math.min(local.loadPerTask, local.avgLoad))
            / scale;
    long capaMove = 0;
    if (busiest.avgLoad > scaledBusyLoadPerTask) {
      capaMove +=
          busiest.groupCapacity
              * Math.min(busiest.loadPerTask, busiest.avgLoad - scaledBusyLoadPerTask);
    }
    long tmp;
    if (busiest.avgLoad * busiest.groupCapacity < busiest.loadPerTask * scale) {
      tmp = busiest.avgLoad * busiest.groupCapacity / local.groupCapacity;
    } else {
      tmp = busiest.loadPerTask * scale / local.groupCapacity;
    }
    capaMove += local.groupCapacity * Math.min(local.loadPerTask, local.avgLoad + tmp);
    capaMove /= scale;
    if (capaMove > capaNow) {
      imbalance = busiest.loadPerTask;
    }
  }

  /** {@code find_busiest_queue()} of v4.17: the highest weighted load per capacity. */
  @Nullable Cpu findBusiestQueue(SchedDomain sd, BitSet group) {
    Cpu best = null;
    long bestLoad = 0;
    long bestCapacity = 1;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      if (excluded.get(i)) {
        continue;
      }
      Cpu c = k.cpus[i];
      long capacity = c.capacity;
      long wl = weightedCpuload(c);
      if (c.nrRunning == 1 && wl > imbalance && !LbEnv.checkCpuCapacity(c, sd)) {
        continue; // its only task is more than the imbalance: moving it would turn it around
      }
      if (wl * bestCapacity > bestLoad * capacity) {
        bestLoad = wl;
        bestCapacity = capacity;
        best = c;
      }
    }
    return best;
  }

  /**
   * {@code detach_tasks()} + {@code attach_tasks()} of v4.17: the least recently queued tasks
   * first, each allowed by {@code can_migrate_task()} and moved when half its {@code task_h_load()}
   * fits the imbalance, which it then lowers by its whole load.
   */
  private int detachTasks(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    if (imbalance <= 0) {
      return 0;
    }
    int moved = 0;
    int loops = 0;
    int loopMax = (int) Math.min(k.costs.p(Param.NR_MIGRATE), src.nrRunning);
    Task t = src.queuedHead;
    while (t != null) {
      Task next = t.rqNext;
      if (t.classRank != SchedulingClass.RANK_FAIR) {
        t = next; // not on cfs_tasks
        continue;
      }
      if (idle != LoadBalancer.CPU_NOT_IDLE && src.nrRunning <= 1) {
        break;
      }
      if (++loops > loopMax) {
        break;
      }
      if (canMigrate(t, src, dst, sd)) {
        long load = k.fairLoad == null ? 1 : k.fairLoad.taskHLoad(t);
        boolean lbMinSkip = k.costs.on(Param.LB_MIN) && load < 16 && sd.nrBalanceFailed == 0;
        if (!lbMinSkip && load / 2 <= imbalance) {
          lb.migrate(t, src, dst);
          moved++;
          imbalance -= load;
          if (idle == LoadBalancer.CPU_NEWLY_IDLE
              && k.model.honours(
                  dev.schedlab.api.PreemptPoint.IRQ_EXIT_KERNEL, dev.schedlab.api.ReschedBit.NR)) {
            break; // CONFIG_PREEMPT: a newidle pull stops after one task
          }
          if (imbalance <= 0) {
            break;
          }
        }
      }
      t = next;
    }
    return moved;
  }

  /** {@code can_migrate_task()} of v4.17, with its LBF_SOME_PINNED and LBF_ALL_PINNED flags. */
  private boolean canMigrate(Task t, Cpu src, Cpu dst, SchedDomain sd) {
    if (k.fairLoad != null && k.fairLoad.throttled(t)) {
      return false;
    }
    if (!t.allowed.get(dst.id)) {
      somePinned = true;
      return false;
    }
    allPinned = false;
    if (t == src.curr || t.onCpu || t.state != dev.schedlab.api.TaskState.RUNNING) {
      return false;
    }
    return !lb.taskHot(t, sd) || sd.nrBalanceFailed > LoadBalancer.cacheNiceTries(sd);
  }

  /** {@code weighted_cpuload()}: the root cfs_rq's runnable load (queued entities only). */
  long weightedCpuload(Cpu c) {
    return k.fairLoad == null ? c.fairNr * 1024L : k.fairLoad.runnableLoad(c.id);
  }

  /** {@code cpu_util()} of v4.17: util_avg or util_est, at most the CPU's original capacity. */
  private long cpuUtil(Cpu c) {
    if (k.fairLoad == null) {
      return 0;
    }
    dev.schedlab.api.view.LoadAvgView a = k.fairLoad.rqAvg(c.id);
    return Math.min(Math.max(a.utilAvg(), a.utilEst()), c.capacityOrig);
  }

  /** The v4.17 statistics in the API's form for hook H17 (group_other as has_spare). */
  private static GroupStats hookStats(Sg s, GroupStats out) {
    out.reset();
    out.avgLoad = s.avgLoad;
    out.load = s.groupLoad;
    out.util = s.groupUtil;
    out.capacity = s.groupCapacity;
    out.nrRunning = s.sumNrRunning;
    out.hNrRunning = s.sumNrRunning;
    out.idleCpus = s.idleCpus;
    out.weight = s.groupWeight;
    out.imbalanced = s.groupType == GROUP_IMBALANCED;
    out.type =
        switch (s.groupType) {
          case GROUP_OVERLOADED -> GroupStats.OVERLOADED;
          case GROUP_IMBALANCED -> GroupStats.IMBALANCED;
          default -> GroupStats.HAS_SPARE;
        };
    return out;
  }
}
