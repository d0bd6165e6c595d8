package dev.schedlab.engine.core;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.SchedAvg;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of one v4.17 {@code load_balance()} pass ({@code feature.LB_AVG_LOAD}; {@code
 * struct lb_env} and {@code struct sd_lb_stats} of v4.17): group statistics by runnable load, the
 * busiest group and the imbalance in weighted load, the busiest runqueue. {@link LoadBalance417}
 * moves the tasks.
 *
 * <p>Models: {@code update_sd_lb_stats()} (the local group first, prefer-sibling marking a group
 * with more than one task over the local one as without capacity) and {@code update_sg_lb_stats()}
 * (runnable load, {@code weighted_cpuload()}, util with util_est, fair task count, idle CPUs,
 * {@code load_per_task}, {@code avg_load}); {@code group_classify()} into group_other,
 * group_imbalanced ({@code sgc->imbalance}) and group_overloaded ({@code group_is_overloaded()});
 * {@code update_sd_pick_busiest()}; {@code find_busiest_group()}'s checks in its order; {@code
 * calculate_imbalance()} with {@code load_above_capacity} and {@code fix_small_imbalance()}; {@code
 * find_busiest_queue()} by weighted load per capacity. Hook H17 gets the decision (group_other
 * passed as has_spare, the imbalance as migrate_load).
 *
 * <p>Does not model: the decayed {@code cpu_load[]} indexes ({@code source_load()} and {@code
 * target_load()} read the instant {@code weighted_cpuload()}, as v4.17 does at index 0: newidle
 * passes and the SMT and MC levels of an idle CPU), asym packing, NUMA balancing's {@code
 * fbq_type}.
 *
 * <p>Kernel reference: v4.17 {@code kernel/sched/fair.c} ({@code find_busiest_group}, {@code
 * update_sd_lb_stats}, {@code update_sg_lb_stats}, {@code group_classify}, {@code
 * update_sd_pick_busiest}, {@code calculate_imbalance}, {@code fix_small_imbalance}, {@code
 * find_busiest_queue}); v5.5's 0b0695f2b34a "sched/fair: Rework load_balance()" replaced them.
 */
final class LbEnv417 {
  static final int GROUP_OTHER = 0;
  static final int GROUP_IMBALANCED = 1;
  static final int GROUP_OVERLOADED = 2;

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
  final Sg local = new Sg();
  final Sg busiest = new Sg();
  private final Sg sgs = new Sg();
  private final GroupStats hookLocal = new GroupStats();
  private final GroupStats hookBusiest = new GroupStats();

  /** {@code env->cpus}: CPUs left out of this pass after an all-pinned busiest one. */
  final BitSet excluded = new BitSet();

  int localGroup;
  int busiestGroup;
  long totalLoad;
  long totalCapacity;

  /** {@code sds->avg_load}. */
  long avgLoad;

  /** {@code env->imbalance}: weighted load to move. */
  long imbalance;

  LbEnv417(Kernel k) {
    this.k = k;
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

  /** {@code weighted_cpuload()}: the root cfs_rq's runnable load (queued entities only). */
  long weightedCpuload(Cpu c) {
    if (k.fairLoad == null) {
      return c.fairNr * 1024L;
    }
    long runnable = k.fairLoad.runnableLoad(c.id);
    return runnable >= 0 ? runnable : k.fairLoad.rqAvg(c.id).loadAvg();
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
