package dev.schedlab.engine.core;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.view.LoadAvgView;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * The decisions of one {@code sched_balance_rq()} pass ({@code struct lb_env} and {@code struct
 * sd_lb_stats}): group statistics from PELT, the busiest group, the imbalance and its migration
 * type, and the busiest runqueue. The {@link LoadBalancer} moves the tasks.
 *
 * <p>Models: {@code update_sg_lb_stats()} (fair load, util = max(util_avg, util_est), runnable,
 * task counts, idle CPUs, misfit load on asymmetric-capacity domains, group capacity as the sum of
 * {@code capacity_of()}), {@code group_classify()}, {@code update_sd_pick_busiest()}, {@code
 * sched_balance_find_src_group()} with its balanced exits, {@code calculate_imbalance()} with the
 * migration types load, util, task and misfit (prefer-sibling spreading by {@code
 * sibling_imbalance()}, even idle CPUs otherwise, NUMA imbalance allowance left out), and {@code
 * sched_balance_find_src_rq()}.
 *
 * <p>Does not model: asym packing and SMT balance (no CPU priorities), the imbalanced group type
 * (the pinned-task retry with another dst CPU), NUMA balancing classes ({@code fbq_type}), {@code
 * imb_numa_nr}, EAS's overutilised gate, group capacity's time-based refresh.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c}.
 */
final class LbEnv {
  static final int MIGRATE_LOAD = 0;
  static final int MIGRATE_UTIL = 1;
  static final int MIGRATE_TASK = 2;
  static final int MIGRATE_MISFIT = 3;

  /** Names of the migration types, by value. */
  static final String[] MIGRATION_NAMES = {"load", "util", "task", "misfit"};

  private final Kernel k;
  final GroupStats local = new GroupStats();
  final GroupStats busiest = new GroupStats();
  private final GroupStats sgs = new GroupStats();

  // the pass being decided
  @SuppressWarnings("NullAway.Init") // set by each pass before use
  Cpu dst;

  @SuppressWarnings("NullAway.Init")
  SchedDomain sd;

  int idle;
  int localGroup;
  int busiestGroup;
  int localCores;
  int busiestCores;
  long totalLoad;
  long totalCapacity;
  long sumUtil;
  long imbalance;
  int migrationType;

  LbEnv(Kernel k) {
    this.k = k;
  }

  /** {@code update_sd_lb_stats()}: statistics of every group, the local and busiest ones kept. */
  void updateSdLbStats(Cpu dst, SchedDomain sd, int idle) {
    this.dst = dst;
    this.sd = sd;
    this.idle = idle;
    localGroup = -1;
    busiestGroup = -1;
    busiest.reset();
    local.reset();
    totalLoad = 0;
    totalCapacity = 0;
    sumUtil = 0;
    for (int g = 0; g < sd.groups.length; g++) {
      boolean isLocal = sd.groups[g].get(dst.id);
      GroupStats s = isLocal ? local : sgs;
      groupStats(sd.groups[g], s);
      if (isLocal) {
        localGroup = g;
        localCores = cores(sd.groups[g]);
      } else if (pickBusiest(g, s)) {
        busiestGroup = g;
        busiest.copyFrom(s);
        busiestCores = cores(sd.groups[g]);
      }
      totalLoad += s.load;
      totalCapacity += s.capacity;
      sumUtil += s.util;
    }
  }

  /** {@code update_sg_lb_stats()}. */
  private void groupStats(BitSet group, GroupStats s) {
    s.reset();
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      Cpu c = k.cpus[i];
      LoadAvgView a = cfsAvg(c);
      s.load += a.loadAvg();
      s.util += Math.min(Math.max(a.utilAvg(), a.utilEst()), c.capacityOrig);
      s.runnable += a.runnableAvg();
      s.hNrRunning += c.fairNr;
      s.nrRunning += c.nrRunning;
      s.capacity += c.capacity;
      if (c.nrRunning == 0 && c.isIdle()) {
        s.idleCpus++;
      }
      if (sd.asymCapacity && s.misfitLoad < c.misfitTaskLoad) {
        s.misfitLoad = c.misfitTaskLoad;
      }
      s.weight++;
    }
    s.classify(sd.imbalancePct);
    if (s.type == GroupStats.OVERLOADED) {
      s.avgLoad = s.load * SchedAvg.CAPACITY_SCALE / Math.max(1, s.capacity);
    }
  }

  private LoadAvgView cfsAvg(Cpu c) {
    return k.fairLoad == null ? LoadAvgView.ZERO : k.fairLoad.rqAvg(c.id);
  }

  /** {@code update_sd_pick_busiest()}. */
  private boolean pickBusiest(int g, GroupStats s) {
    if (s.hNrRunning == 0) {
      return false;
    }
    if (sd.asymCapacity
        && s.type == GroupStats.MISFIT_TASK
        && (!capacityGreater(dst.capacity, maxCapacity(sd.groups[g]))
            || local.type != GroupStats.HAS_SPARE)) {
      return false; // a misfit task we cannot help
    }
    if (busiestGroup < 0) {
      return pickOverDstCapacity(g, s);
    }
    if (s.type != busiest.type) {
      return s.type > busiest.type;
    }
    switch (s.type) {
      case GroupStats.OVERLOADED -> {
        return s.avgLoad > busiest.avgLoad;
      }
      case GroupStats.MISFIT_TASK -> {
        return s.misfitLoad > busiest.misfitLoad;
      }
      case GroupStats.FULLY_BUSY -> {
        // avg_load is not computed for fully busy groups: keep the first, unless SMT.
        if (!"SMT".equals(childName())) {
          return false;
        }
      }
      case GroupStats.HAS_SPARE -> {
        if (s.idleCpus > busiest.idleCpus
            || (s.idleCpus == busiest.idleCpus && s.nrRunning <= busiest.nrRunning)) {
          return false;
        }
      }
      default -> {
        return false;
      }
    }
    return pickOverDstCapacity(g, s);
  }

  /** A group of bigger CPUs with at most one task each stays: moving would lose throughput. */
  private boolean pickOverDstCapacity(int g, GroupStats s) {
    return !(sd.asymCapacity
        && s.type <= GroupStats.FULLY_BUSY
        && capacityGreater(minCapacity(sd.groups[g]), dst.capacity));
  }

  private String childName() {
    for (int i = 0; i < dst.domains.length; i++) {
      if (dst.domains[i] == sd) {
        return i == 0 ? "" : dst.domains[i - 1].name;
      }
    }
    return "";
  }

  /** {@code prefer_sibling}: the child domain spreads over its siblings (not across NUMA). */
  private boolean preferSibling() {
    String child = childName();
    return !child.isEmpty() && !"NUMA".equals(child) && !sd.asymCapacity;
  }

  /**
   * {@code sched_balance_find_src_group()}: the busiest group, or -1 when balanced; sets {@link
   * #imbalance} and {@link #migrationType}, as hook H17 finally decides.
   */
  int findSrcGroup() {
    int g = findSrcGroupMainline();
    long mainline = g < 0 ? 0 : imbalance;
    imbalance =
        k.ext
            .loadBalance()
            .imbalance(
                dst,
                sd,
                idle,
                local,
                busiestGroup < 0 ? null : busiest,
                migrationType,
                mainline); // H17
    return imbalance > 0 && busiestGroup >= 0 ? busiestGroup : -1;
  }

  private int findSrcGroupMainline() {
    imbalance = 0;
    migrationType = MIGRATE_LOAD;
    if (busiestGroup < 0) {
      return -1;
    }
    if (busiest.type == GroupStats.MISFIT_TASK) {
      return forceBalance();
    }
    if (local.type > busiest.type) {
      return -1;
    }
    if (local.type == GroupStats.OVERLOADED) {
      if (local.avgLoad >= busiest.avgLoad) {
        return -1;
      }
      long avg = totalLoad * SchedAvg.CAPACITY_SCALE / Math.max(1, totalCapacity);
      if (local.avgLoad >= avg) {
        return -1;
      }
      if (100 * busiest.avgLoad <= (long) sd.imbalancePct * local.avgLoad) {
        return -1;
      }
    }
    if (preferSibling() && local.type == GroupStats.HAS_SPARE && siblingImbalance() > 1) {
      return forceBalance();
    }
    if (busiest.type != GroupStats.OVERLOADED) {
      if (idle == LoadBalancer.CPU_NOT_IDLE) {
        return -1; // let an idle CPU pull
      }
      if (busiest.weight > 1 && local.idleCpus <= busiest.idleCpus + 1) {
        return -1;
      }
      if (busiest.hNrRunning == 1) {
        return -1;
      }
    }
    return forceBalance();
  }

  private int forceBalance() {
    calculateImbalance();
    return imbalance > 0 ? busiestGroup : -1;
  }

  /** {@code calculate_imbalance()}. */
  private void calculateImbalance() {
    if (busiest.type == GroupStats.MISFIT_TASK) {
      if (sd.asymCapacity) {
        migrationType = MIGRATE_MISFIT;
        imbalance = 1;
      } else {
        migrationType = MIGRATE_LOAD;
        imbalance = busiest.misfitLoad;
      }
      return;
    }
    if (local.type == GroupStats.HAS_SPARE) {
      if (busiest.type > GroupStats.FULLY_BUSY && !sd.shareLlc) {
        migrationType = MIGRATE_UTIL;
        imbalance = Math.max(local.capacity, local.util) - local.util;
        if (idle != LoadBalancer.CPU_NOT_IDLE && imbalance == 0) {
          migrationType = MIGRATE_TASK;
          imbalance = 1;
        }
        return;
      }
      migrationType = MIGRATE_TASK;
      if (busiest.weight == 1 || preferSibling()) {
        imbalance = siblingImbalance();
      } else {
        imbalance = Math.max(0, local.idleCpus - busiest.idleCpus);
      }
      imbalance >>= 1;
      return;
    }
    long avg = totalLoad * SchedAvg.CAPACITY_SCALE / Math.max(1, totalCapacity);
    if (local.type < GroupStats.OVERLOADED) {
      local.avgLoad = local.load * SchedAvg.CAPACITY_SCALE / Math.max(1, local.capacity);
      if (local.avgLoad >= busiest.avgLoad || local.avgLoad >= avg) {
        imbalance = 0;
        return;
      }
    }
    migrationType = MIGRATE_LOAD;
    imbalance =
        Math.max(
            0,
            Math.min(
                    (busiest.avgLoad - avg) * busiest.capacity,
                    (avg - local.avgLoad) * local.capacity)
                / SchedAvg.CAPACITY_SCALE);
  }

  /** {@code sibling_imbalance()}: even out tasks per core between the two groups. */
  private long siblingImbalance() {
    if (idle == LoadBalancer.CPU_NOT_IDLE || busiest.nrRunning == 0) {
      return 0;
    }
    if (busiestCores == localCores) {
      return Math.max(0, busiest.nrRunning - local.nrRunning);
    }
    long imb =
        Math.max(0, (long) localCores * busiest.nrRunning - (long) busiestCores * local.nrRunning);
    imb = (2 * imb + localCores + busiestCores) / (localCores + busiestCores);
    if (imb <= 1 && local.nrRunning == 0 && busiest.nrRunning > 1) {
      imb = 2;
    }
    return imb;
  }

  /** {@code sched_balance_find_src_rq()}: the runqueue to pull from, by migration type. */
  @Nullable Cpu findSrcRq(BitSet group) {
    Cpu best = null;
    long bestLoad = 0;
    long bestCapacity = 1;
    long bestUtil = 0;
    int bestNr = 0;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      Cpu c = k.cpus[i];
      int nr = c.fairNr;
      if (nr == 0) {
        continue;
      }
      long capacity = c.capacity;
      if (sd.asymCapacity && !capacityGreater(dst.capacity, capacity) && nr == 1) {
        continue;
      }
      switch (migrationType) {
        case MIGRATE_LOAD -> {
          long load = cfsAvg(c).loadAvg();
          if (nr == 1 && load > imbalance && !checkCpuCapacity(c, sd)) {
            break;
          }
          if (load * bestCapacity > bestLoad * capacity) {
            bestLoad = load;
            bestCapacity = capacity;
            best = c;
          }
        }
        case MIGRATE_UTIL -> {
          LoadAvgView a = cfsAvg(c);
          long util = Math.min(Math.max(a.utilAvg(), a.utilEst()), c.capacityOrig);
          if (nr > 1 && bestUtil < util) {
            bestUtil = util;
            best = c;
          }
        }
        case MIGRATE_TASK -> {
          if (bestNr < nr) {
            bestNr = nr;
            best = c;
          }
        }
        default -> {
          if (c.misfitTaskLoad > bestLoad) {
            bestLoad = c.misfitTaskLoad;
            best = c;
          }
        }
      }
    }
    return best;
  }

  /** {@code check_cpu_capacity()}: RT, DL or IRQ time took more than imbalance_pct of it. */
  static boolean checkCpuCapacity(Cpu c, SchedDomain sd) {
    return c.capacity * sd.imbalancePct < c.capacityOrig * 100;
  }

  /** {@code capacity_greater()}: more than ~5 % greater. */
  static boolean capacityGreater(long a, long b) {
    return a * 1024 > b * 1078;
  }

  private long maxCapacity(BitSet group) {
    long max = 0;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      max = Math.max(max, k.cpus[i].capacity);
    }
    return max;
  }

  private long minCapacity(BitSet group) {
    long min = Long.MAX_VALUE;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      min = Math.min(min, k.cpus[i].capacity);
    }
    return min;
  }

  /** {@code sg->cores}: the group's cores (each counted at its lowest thread in the group). */
  private int cores(BitSet group) {
    int n = 0;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      boolean first = true;
      for (Cpu s : k.cpus[i].siblings) {
        if (s.id < i && group.get(s.id)) {
          first = false;
        }
      }
      n += first ? 1 : 0;
    }
    return n;
  }
}
