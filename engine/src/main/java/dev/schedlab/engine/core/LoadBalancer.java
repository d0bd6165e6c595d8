package dev.schedlab.engine.core;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;

/**
 * Load balancing of fair tasks (kernel/sched/fair.c): the tick's {@code sched_balance_trigger()},
 * SCHED_SOFTIRQ's {@code sched_balance_domains()} per domain when its interval is due,
 * {@code sched_balance_rq()} (busiest group and runqueue, detach/attach up to
 * {@code sched_nr_migrate} tasks that are allowed and not cache hot), and
 * {@code sched_balance_newidle()} gated by {@code avg_idle} and {@code max_newidle_lb_cost}.
 *
 * <p>Simplified: load is the number of runnable tasks (no PELT); group classification is
 * has-spare / fully-busy / overloaded by task count; no active balance of running tasks, no
 * misfit or asym-packing, no NUMA balancing; RT/DL push/pull are not modelled.
 */
final class LoadBalancer {
  static final int CPU_IDLE = 0;
  static final int CPU_NOT_IDLE = 1;
  static final int CPU_NEWLY_IDLE = 2;
  private static final int CACHE_NICE_TRIES = 1;

  private final Kernel k;
  private final MetricCounter balances;
  private final MetricCounter migrations;
  private final MetricCounter newidleRuns;
  private final MetricCounter newidlePulls;
  /** CPUs with two or more runnable tasks ({@code rd->overloaded} is "any"). */
  int overloadedCpus;

  LoadBalancer(Kernel k) {
    this.k = k;
    balances = k.metrics.counter("lb.balance_calls");
    migrations = k.metrics.counter("lb.migrations");
    newidleRuns = k.metrics.counter("lb.newidle_balance_walks");
    newidlePulls = k.metrics.counter("lb.newidle_pulls");
  }

  /** {@code add_nr_running}/{@code sub_nr_running}: keeps the overload count. */
  void nrRunningChanged(Cpu cpu, int before) {
    boolean was = before >= 2;
    boolean is = cpu.nrRunning >= 2;
    if (was != is) {
      overloadedCpus += is ? 1 : -1;
    }
  }

  long maxLoadBalanceIntervalJiffies() {
    return Math.max(1, (long) k.hz * k.cpus.length / 10);
  }

  long intervalJiffies(SchedDomain sd, boolean busy) {
    long ms = sd.balanceIntervalMs * (busy ? sd.busyFactor : 1);
    long j = Math.max(1, ms * k.hz / 1000);
    return Math.min(j, maxLoadBalanceIntervalJiffies());
  }

  /** {@code sched_balance_trigger()} from the tick. */
  void trigger(Cpu cpu) {
    if (cpu.domains.length > 0 && k.jiffies() >= cpu.nextBalance) {
      cpu.schedSoftirq = true;
    }
    k.nohz.balancerKick(cpu);
  }

  /** SCHED_SOFTIRQ ({@code sched_balance_softirq}); cost goes to {@link Kernel#pathCost}. */
  void softirq(Cpu cpu) {
    int idle = cpu.idleBalance ? CPU_IDLE : CPU_NOT_IDLE;
    if (k.nohz.runKickedBalance(cpu, idle)) {
      return;
    }
    balanceDomains(cpu, idle);
  }

  /** {@code sched_balance_domains()}: balance every domain whose interval has elapsed. */
  void balanceDomains(Cpu cpu, int idle) {
    long jiffies = k.jiffies();
    boolean busy = idle != CPU_IDLE;
    long next = jiffies + 60L * k.hz;
    boolean update = false;
    for (SchedDomain sd : cpu.domains) {
      decayNewidleCost(cpu, sd, jiffies);
      long interval = intervalJiffies(sd, busy);
      if (jiffies >= sd.lastBalance + interval) {
        k.pathCost += scanCost(sd);
        if (balanceRq(cpu, sd, idle)) {
          idle = cpu.isIdle() ? CPU_IDLE : CPU_NOT_IDLE;
          busy = idle != CPU_IDLE;
        }
        sd.lastBalance = jiffies;
        interval = intervalJiffies(sd, busy);
      }
      if (next > sd.lastBalance + interval) {
        next = sd.lastBalance + interval;
        update = true;
      }
    }
    if (update) {
      cpu.nextBalance = next;
    }
  }

  private void decayNewidleCost(Cpu cpu, SchedDomain sd, long jiffies) {
    if (jiffies > sd.lastDecayMaxLbCost + k.hz) {
      sd.maxNewidleLbCost = sd.maxNewidleLbCost * 253 / 256;
      sd.lastDecayMaxLbCost = jiffies;
    }
    cpu.maxIdleBalanceCost = Math.max(k.p(Param.MIGRATION_COST), sd.maxNewidleLbCost);
  }

  /**
   * {@code sched_balance_rq()} for {@code dst} at {@code sd}: pull tasks from the busiest runqueue
   * of the busiest group. Returns whether any task moved. The caller charges the per-domain cost
   * (periodic and newidle balancing cost differently).
   */
  private boolean balanceRq(Cpu dst, SchedDomain sd, int idle) {
    balances.value++;
    if (idle != CPU_NEWLY_IDLE) {
      updateIdleCpuScan(dst, sd);
    }
    BitSet local = null;
    BitSet busiest = null;
    int busiestType = -1;
    long busiestNr = 0;
    int busiestW = 1;
    for (BitSet g : sd.groups) {
      if (g.get(dst.id)) {
        local = g;
        continue;
      }
      long nr = 0;
      int w = 0;
      for (int i = g.nextSetBit(0); i >= 0; i = g.nextSetBit(i + 1)) {
        nr += k.cpus[i].nrRunning;
        w++;
      }
      int type = nr > w ? 2 : nr == w ? 1 : 0;
      if (type > busiestType || (type == busiestType && nr * busiestW > busiestNr * w)) {
        busiest = g;
        busiestType = type;
        busiestNr = nr;
        busiestW = w;
      }
    }
    if (busiest == null || local == null) {
      return false;
    }
    long localNr = 0;
    int localW = 0;
    for (int i = local.nextSetBit(0); i >= 0; i = local.nextSetBit(i + 1)) {
      localNr += k.cpus[i].nrRunning;
      localW++;
    }
    long imbalance = imbalance(sd, idle, localNr, localW, busiestNr, busiestW, busiestType);
    if (imbalance <= 0) {
      sd.balanceIntervalMs = sd.minIntervalMs;
      sd.nrBalanceFailed = 0;
      return false;
    }
    Cpu src = busiestRq(busiest, dst);
    if (src == null) {
      return false;
    }
    int moved = detachAttach(src, dst, sd, (int) Math.min(imbalance, k.p(Param.NR_MIGRATE)));
    if (moved == 0) {
      sd.nrBalanceFailed++;
      if (sd.balanceIntervalMs < sd.maxIntervalMs) {
        sd.balanceIntervalMs *= 2;
      }
      return false;
    }
    sd.nrBalanceFailed = 0;
    sd.balanceIntervalMs = sd.minIntervalMs;
    return true;
  }

  /**
   * {@code update_idle_cpu_scan()}: when balancing the LLC's domain, SIS_UTIL's scan depth
   * {@code nr_idle_scan} = llc_weight x (1 - x^2 pct^2 / 10000), x = the LLC's utilisation per
   * CPU over 1024: the scan shrinks as the LLC fills and stops at 100 / imbalance_pct (85 %).
   */
  private void updateIdleCpuScan(Cpu dst, SchedDomain sd) {
    if (!k.params.on(Param.SIS_UTIL) || !sd.shareLlc || k.fairLoad == null) {
      return;
    }
    SchedDomain llc = null;
    for (SchedDomain d : dst.domains) {
      if (d.shareLlc) {
        llc = d;
      }
    }
    if (llc != sd) {
      return;
    }
    long sumUtil = 0;
    for (int i = sd.span.nextSetBit(0); i >= 0; i = sd.span.nextSetBit(i + 1)) {
      sumUtil += cpuUtilCfs(k.cpus[i]);
    }
    long x = sumUtil / sd.weight;
    long pct = sd.imbalancePct;
    long tmp = Math.min(x * x * pct * pct / (10_000L * 1024), 1024);
    long y = (1024 - tmp) * sd.weight / 1024;
    k.llcNrIdleScan[dst.llcId] = (int) y;
  }

  /** {@code cpu_util_cfs()}: max(util_avg, util_est) of the fair runqueue, capped at capacity. */
  long cpuUtilCfs(Cpu c) {
    dev.schedlab.api.view.LoadAvgView a = k.fairLoad.rqAvg(c.id);
    return Math.min(Math.max(a.utilAvg(), a.utilEst()), c.capacityOrig);
  }

  /** Tasks to move: spread onto idle CPUs, or half the excess of an overloaded group. */
  private static long imbalance(SchedDomain sd, int idle, long localNr, int localW, long busiestNr,
      int busiestW, int busiestType) {
    if (busiestType == 0) {
      return 0; // has spare capacity: nothing to pull
    }
    if (localNr < localW) {
      // Local group has idle CPUs: move tasks towards them (calculate_imbalance, migrate_task).
      long excess = busiestNr - busiestW;
      long spare = localW - localNr;
      if (busiestType == 1 && localNr + 1 >= busiestNr) {
        return 0;
      }
      return Math.max(1, Math.min(spare, Math.max(excess, 1)));
    }
    if (idle != CPU_NOT_IDLE) {
      return 0;
    }
    // Both busy: balance averages when the busiest exceeds the local by imbalance_pct.
    if (busiestNr * localW * 100 <= localNr * busiestW * sd.imbalancePct) {
      return 0;
    }
    return Math.max(1, (busiestNr * localW - localNr * busiestW) / (2L * Math.max(1, localW)));
  }

  private Cpu busiestRq(BitSet group, Cpu dst) {
    Cpu best = null;
    for (int i = group.nextSetBit(0); i >= 0; i = group.nextSetBit(i + 1)) {
      Cpu c = k.cpus[i];
      if (c.nrRunning >= 2 && (best == null || c.nrRunning > best.nrRunning)) {
        best = c;
      }
    }
    return best;
  }

  /** {@code detach_tasks()} + {@code attach_tasks()}: movable fair tasks, oldest queued first. */
  private int detachAttach(Cpu src, Cpu dst, SchedDomain sd, int want) {
    int moved = 0;
    Task t = src.queuedHead;
    int loops = 0;
    while (t != null && moved < want && loops++ < k.p(Param.NR_MIGRATE)) {
      Task next = t.rqNext;
      if (canMigrate(t, src, dst, sd)) {
        migrate(t, src, dst);
        moved++;
        if (src.nrRunning <= 1) {
          break;
        }
      }
      t = next;
    }
    return moved;
  }

  private boolean canMigrate(Task t, Cpu src, Cpu dst, SchedDomain sd) {
    if (t == src.curr || t.onCpu || t.classRank != SchedulingClass.RANK_FAIR
        || t.state != dev.schedlab.api.TaskState.RUNNING || !t.allowed.get(dst.id)) {
      return false;
    }
    boolean hot = k.now - t.execStart < k.p(Param.MIGRATION_COST) && t.sumExec > 0;
    return !hot || sd.nrBalanceFailed > CACHE_NICE_TRIES;
  }

  /** Moves queued, not running {@code t} from {@code src} to {@code dst} and checks preemption. */
  void migrate(Task t, Cpu src, Cpu dst) {
    migrations.value++;
    k.pathCost += k.p(Param.LB_PER_TASK);
    k.sched.account(src);
    if (!t.sclass.dequeue(src, t, SchedFlags.DEQUEUE_MIGRATING)) {
      throw new IllegalStateException("class " + t.sclass.name() + " kept " + t + " on migration");
    }
    k.sched.removeQueued(src, t);
    k.sched.activate(dst, t, SchedFlags.ENQUEUE_MIGRATED);
    k.sched.wakeupPreempt(dst, t, 0);
  }

  /** One {@code sched_balance_rq()} pass over {@code sd}: a fixed part plus every CPU's statistics. */
  private long scanCost(SchedDomain sd) {
    return k.p(Param.LB_DOMAIN_BASE) + sd.weight * k.p(Param.LB_PER_CPU_SCANNED);
  }

  /**
   * {@code sched_balance_newidle()}: before going idle, walk the domains while {@code avg_idle}
   * covers the cost so far plus the domain's {@code max_newidle_lb_cost}; returns whether a task
   * was pulled. Runs inside the IRQs-off window of {@code __schedule()}.
   */
  boolean newidle(Cpu cpu) {
    cpu.idleStamp = k.now;
    long jiffies = k.jiffies();
    long next = jiffies + k.hz;
    if (cpu.domains.length == 0 || cpu.ttwuPending) {
      k.pathCost += k.p(Param.NEWIDLE_EARLY_EXIT);
      return false;
    }
    SchedDomain top = cpu.domains[0];
    long gate = k.params.on(Param.NEWIDLE_MIGRATION_COST_GATE)
        ? k.p(Param.MIGRATION_COST) : top.maxNewidleLbCost;
    if (overloadedCpus == 0 || cpu.avgIdle < gate) {
      k.pathCost += k.p(Param.NEWIDLE_EARLY_EXIT);
      next = Math.min(next, top.lastBalance + intervalJiffies(top, false));
      if (cpu.nextBalance > next) {
        cpu.nextBalance = next;
      }
      k.nohz.newidleFailed(cpu);
      return false;
    }
    newidleRuns.value++;
    boolean pulled = false;
    long currCost = 0;
    for (SchedDomain sd : cpu.domains) {
      if (cpu.avgIdle < currCost + sd.maxNewidleLbCost) {
        break;
      }
      long before = k.pathCost;
      k.pathCost += scanCost(sd);
      pulled = balanceRq(cpu, sd, CPU_NEWLY_IDLE);
      long domainCost = k.pathCost - before;
      if (domainCost > sd.maxNewidleLbCost) {
        sd.maxNewidleLbCost = domainCost;
      }
      currCost += domainCost;
      next = Math.min(next, sd.lastBalance + intervalJiffies(sd, false));
      if (pulled || cpu.nrRunning > 0) {
        break;
      }
    }
    cpu.maxIdleBalanceCost = Math.max(cpu.maxIdleBalanceCost, currCost);
    if (cpu.nextBalance > next) {
      cpu.nextBalance = next;
    }
    if (pulled) {
      newidlePulls.value++;
      cpu.idleStamp = 0;
    } else {
      k.nohz.newidleFailed(cpu);
    }
    return pulled;
  }
}
