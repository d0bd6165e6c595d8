package dev.schedlab.engine.core;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.params.Param;
import org.jspecify.annotations.Nullable;

/**
 * Load balancing of fair tasks: this class runs the passes, detaches and attaches tasks, and pushes
 * a running task through the source CPU's stopper (active balance); the decisions of a pass are
 * {@link LbEnv}'s (v6.12: PELT load and util, group types, migration types), or with {@code
 * feature.LB_AVG_LOAD} the whole pass is v4.17's ({@link LoadBalance417}: avg_load, {@code
 * fix_small_imbalance()}, pinned-task handling).
 *
 * <p>Models: the tick's {@code sched_balance_trigger()}, SCHED_SOFTIRQ's {@code
 * sched_balance_domains()} per domain when its interval is due, {@code sched_balance_rq()} (busiest
 * group and runqueue, detach/attach up to {@code sched_nr_migrate} tasks that are allowed and not
 * cache hot), active balance through the stopper, and {@code sched_balance_newidle()} gated by
 * {@code avg_idle} and {@code max_newidle_lb_cost}.
 *
 * <p>RT and deadline tasks move by their classes' push and pull ({@code RtBalance}, {@code
 * DlBalance} in the classes module), not here.
 *
 * <p>Does not model: NUMA balancing and {@code imb_numa_nr}, asym packing, the imbalanced group
 * type, {@code SD_SERIALIZE}, the LBF_DST_PINNED retry with another destination CPU, EAS.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code sched_balance_trigger}, {@code
 * sched_balance_domains}, {@code sched_balance_rq}, {@code detach_tasks}, {@code can_migrate_task},
 * {@code active_load_balance_cpu_stop}, {@code sched_balance_newidle}).
 */
final class LoadBalancer {
  static final int CPU_IDLE = 0;
  static final int CPU_NOT_IDLE = 1;
  static final int CPU_NEWLY_IDLE = 2;

  private final Kernel k;
  private final MetricCounter balances;
  private final MetricCounter migrations;
  private final MetricCounter newidleRuns;
  private final MetricCounter newidlePulls;
  private final MetricCounter activeBalances;
  private final MetricCounter activePushes;
  private final LbEnv env;

  /** v4.17's {@code load_balance()} ({@code feature.LB_AVG_LOAD}), or null for v6.12's. */
  private final @Nullable LoadBalance417 lb417;

  /** CPUs with two or more runnable tasks ({@code rd->overloaded} is "any"). */
  int overloadedCpus;

  LoadBalancer(Kernel k) {
    this.k = k;
    balances = k.metrics.counter("lb.balance_calls");
    migrations = k.metrics.counter("lb.migrations");
    newidleRuns = k.metrics.counter("lb.newidle_balance_walks");
    newidlePulls = k.metrics.counter("lb.newidle_pulls");
    activeBalances = k.metrics.counter("lb.active_balances");
    activePushes = k.metrics.counter("lb.active_pushes");
    env = new LbEnv(k);
    lb417 = k.costs.on(Param.LB_AVG_LOAD) ? new LoadBalance417(k, this) : null;
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
    updateBlockedAverages(cpu);
    balanceDomains(cpu, idle);
  }

  /**
   * {@code sched_balance_update_blocked_averages()}: brings {@code cpu}'s PELT signals (RT, DL, IRQ
   * and the fair class's, with the blocked load of sleeping tasks) up to now before they are read.
   * Returns whether fair blocked load remains.
   */
  boolean updateBlockedAverages(Cpu cpu) {
    cpu.clock = k.now;
    RqPelt.updateOthers(cpu);
    return k.fairLoad != null && k.fairLoad.updateBlocked(cpu.id);
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
    cpu.maxIdleBalanceCost = Math.max(k.costs.p(Param.MIGRATION_COST), sd.maxNewidleLbCost);
  }

  /**
   * {@code sched_balance_rq()} for {@code dst} at {@code sd}: find the busiest group and runqueue
   * ({@link LbEnv}), then detach up to the imbalance; when nothing could move, maybe push the
   * running task through the source CPU's stopper (active balance). Returns whether any task moved.
   * The caller charges the per-domain cost (periodic and newidle balancing cost differently).
   */
  boolean balanceRq(Cpu dst, SchedDomain sd, int idle) {
    balances.value++;
    if (sd == dst.domains[0]) {
      RqPelt.updateCapacity(dst); // update_group_capacity() at the base domain
    }
    if (lb417 != null) {
      return lb417.loadBalance(dst, sd, idle);
    }
    env.updateSdLbStats(dst, sd, idle);
    if (idle != CPU_NEWLY_IDLE) {
      updateIdleCpuScan(dst, sd, env.sumUtil);
    }
    int group = env.findSrcGroup();
    Cpu src = group < 0 ? null : env.findSrcRq(sd.groups[group]);
    if (src == null) {
      // out_balanced: grow the interval (not for newidle or misfit passes)
      sd.nrBalanceFailed = 0;
      if (idle != CPU_NEWLY_IDLE
          && env.migrationType != LbEnv.MIGRATE_MISFIT
          && sd.balanceIntervalMs < sd.maxIntervalMs) {
        sd.balanceIntervalMs *= 2;
      }
      return false;
    }
    int moved = 0;
    if (src.nrRunning > 1) {
      moved = detachAttach(src, dst, sd, idle);
    }
    boolean active = false;
    boolean v417 = k.costs.on(Param.ACTIVE_BALANCE_ON_FAILURES);
    if (moved == 0) {
      if (idle != CPU_NEWLY_IDLE && env.migrationType != LbEnv.MIGRATE_MISFIT) {
        sd.nrBalanceFailed++;
      }
      if (needActiveBalance(src, dst, sd, idle)
          && src.curr.allowed.get(dst.id)
          && !src.curr.idleTask) {
        if (!src.activeBalance) {
          src.activeBalance = true;
          src.pushCpu = dst.id;
          active = true;
          stopOneCpu(src);
        }
        if (v417) {
          // "force task migration": task_hot() is ignored here until a pull succeeds
          sd.nrBalanceFailed = cacheNiceTries(sd) + 1;
        }
      }
    } else {
      sd.nrBalanceFailed = 0;
    }
    if (!active
        || (v417
            ? voluntaryActiveBalance(src, dst, sd, idle)
            : needActiveBalance(src, dst, sd, idle))) {
      sd.balanceIntervalMs = sd.minIntervalMs;
    } else if (v417 && sd.balanceIntervalMs < sd.maxIntervalMs) {
      sd.balanceIntervalMs *= 2; // active balancing begun: back off
    }
    return moved > 0;
  }

  /**
   * {@code update_idle_cpu_scan()}: when balancing the LLC's domain, SIS_UTIL's scan depth {@code
   * nr_idle_scan} = llc_weight x (1 - x^2 pct^2 / 10000), x = the LLC's utilisation per CPU over
   * 1024: the scan shrinks as the LLC fills and stops at 100 / imbalance_pct (85 %).
   */
  private void updateIdleCpuScan(Cpu dst, SchedDomain sd, long sumUtil) {
    if (!k.costs.on(Param.SIS_UTIL) || !sd.shareLlc) {
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
    long x = sumUtil / sd.weight;
    long pct = sd.imbalancePct;
    long tmp = Math.min(x * x * pct * pct / (10_000L * 1024), 1024);
    k.llcShared.nrIdleScan[dst.llcId] = (int) ((1024 - tmp) * sd.weight / 1024);
  }

  /**
   * {@code update_misfit_status()}: on an asymmetric machine, the load of a fair task that does not
   * fit its CPU and could run on a bigger one, for the balancer; 0 otherwise.
   */
  void updateMisfit(Cpu cpu, @Nullable Task p) {
    if (!k.asymCapacity) {
      return;
    }
    long load = 0;
    if (p != null
        && p.classRank == SchedulingClass.RANK_FAIR
        && p.nrAllowed > 1
        && k.fairLoad != null
        && cpu.capacityOrig < maxAllowedCapacity(p)) {
      dev.schedlab.api.view.LoadAvgView a = p.loadAvg();
      long util = Math.max(a.utilAvg(), a.utilEst());
      if (util * 1280 >= cpu.capacity * 1024) { // !fits_capacity()
        load = Math.max(1, k.fairLoad.taskHLoad(p));
      }
    }
    cpu.misfitTaskLoad = load;
  }

  /** {@code p->max_allowed_capacity}. */
  private long maxAllowedCapacity(Task p) {
    long max = 0;
    for (int c = p.allowed.nextSetBit(0); c >= 0; c = p.allowed.nextSetBit(c + 1)) {
      max = Math.max(max, k.cpus[c].capacityOrig);
    }
    return max;
  }

  /**
   * {@code need_active_balance()}: the voluntary cases, or balancing at this level keeps failing
   * (since v5.12 only when spreading tasks, migrate_task; before, for any imbalance: {@code
   * feature.ACTIVE_BALANCE_ON_FAILURES}).
   */
  private boolean needActiveBalance(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    if ((env.migrationType == LbEnv.MIGRATE_TASK || k.costs.on(Param.ACTIVE_BALANCE_ON_FAILURES))
        && sd.nrBalanceFailed > cacheNiceTries(sd) + 2) {
      return true; // imbalanced_active_balance(): balancing keeps failing
    }
    return voluntaryActiveBalance(src, dst, sd, idle);
  }

  /** {@code voluntary_active_balance()}: the cases that are not repeated failures. */
  private boolean voluntaryActiveBalance(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    if (idle != CPU_NOT_IDLE
        && src.fairNr == 1
        && LbEnv.checkCpuCapacity(src, sd)
        && src.capacity * sd.imbalancePct < dst.capacity * 100) {
      return true; // the only task of a CPU whose capacity RT/IRQ took: more is left here
    }
    return env.migrationType == LbEnv.MIGRATE_MISFIT;
  }

  /**
   * {@code sd->cache_nice_tries} as {@code sd_init()} sets it: 0 on the SMT level (siblings share
   * their caches: SD_SHARE_CPUCAPACITY keeps the initial 0), 2 on NUMA levels, 1 on the others.
   */
  static int cacheNiceTries(SchedDomain sd) {
    return switch (sd.name) {
      case "SMT" -> 0;
      case "NUMA" -> 2;
      default -> 1;
    };
  }

  /**
   * {@code detach_tasks()} + {@code attach_tasks()}: the oldest queued tasks first, each checked by
   * {@code can_migrate_task()} and weighed by the migration type against the imbalance (its load
   * relaxed by the failed-balance count).
   */
  private int detachAttach(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    int moved = 0;
    Task t = src.queuedHead;
    int loops = 0;
    int loopMax = (int) Math.min(k.costs.p(Param.NR_MIGRATE), src.nrRunning);
    while (t != null && env.imbalance > 0) {
      if (idle != CPU_NOT_IDLE && src.nrRunning <= 1) {
        break;
      }
      if (++loops > loopMax) {
        break;
      }
      Task next = t.rqNext;
      if (canMigrate(t, src, dst, sd, false) && takes(t, src, sd)) {
        migrate(t, src, dst);
        moved++;
        if (newidlePullStops(idle)) {
          break;
        }
      }
      t = next;
    }
    return moved;
  }

  /** CONFIG_PREEMPTION ({@code detach_tasks()}): a newidle pull stops after one task. */
  boolean newidlePullStops(int idle) {
    return idle == CPU_NEWLY_IDLE
        && k.model.honours(
            dev.schedlab.api.PreemptPoint.IRQ_EXIT_KERNEL, dev.schedlab.api.ReschedBit.NR);
  }

  /** The migration type's test and accounting for one candidate task. */
  private boolean takes(Task t, Cpu src, SchedDomain sd) {
    int shift = Math.min(sd.nrBalanceFailed, 63);
    switch (env.migrationType) {
      case LbEnv.MIGRATE_LOAD -> {
        long load = Math.max(1, k.fairLoad == null ? 1 : k.fairLoad.taskHLoad(t));
        if (k.costs.on(Param.LB_MIN) && load < 16 && sd.nrBalanceFailed == 0) {
          return false;
        }
        if ((load >> shift) > env.imbalance) {
          return false;
        }
        env.imbalance -= load;
        return true;
      }
      case LbEnv.MIGRATE_UTIL -> {
        dev.schedlab.api.view.LoadAvgView a = t.loadAvg();
        long util = Math.max(a.utilAvg(), a.utilEst());
        if ((util >> shift) > env.imbalance) {
          return false;
        }
        env.imbalance -= util;
        return true;
      }
      case LbEnv.MIGRATE_TASK -> {
        env.imbalance--;
        return true;
      }
      default -> {
        dev.schedlab.api.view.LoadAvgView a = t.loadAvg();
        long util = Math.max(a.utilAvg(), a.utilEst());
        if (util * 1280 < src.capacity * 1024) {
          return false; // fits its CPU: not the misfit task
        }
        env.imbalance = 0;
        return true;
      }
    }
  }

  /** {@code can_migrate_task()}: {@code active} is LBF_ACTIVE_LB (cache hotness ignored). */
  private boolean canMigrate(Task t, Cpu src, Cpu dst, SchedDomain sd, boolean active) {
    if (t == src.curr
        || t.onCpu
        || t.classRank != SchedulingClass.RANK_FAIR
        || t.state != dev.schedlab.api.TaskState.RUNNING
        || !t.allowed.get(dst.id)
        || (t.kthread && t.nrAllowed == 1)
        || (k.fairLoad != null && k.fairLoad.throttled(t))) {
      return false;
    }
    if (active) {
      return true;
    }
    return !taskHot(t, sd) || sd.nrBalanceFailed > cacheNiceTries(sd);
  }

  /**
   * {@code task_hot()}: ran within migration_cost on this CPU; never across SMT siblings since
   * v5.10 ({@code feature.SMT_CACHE_HOT} off).
   */
  boolean taskHot(Task t, SchedDomain sd) {
    if (t.policy == dev.schedlab.api.Policy.IDLE
        || ("SMT".equals(sd.name) && !k.costs.on(Param.SMT_CACHE_HOT))) {
      return false;
    }
    return k.now - t.execStart < k.costs.p(Param.MIGRATION_COST) && t.sumExec > 0;
  }

  /**
   * {@code stop_one_cpu_nowait(active_load_balance_cpu_stop)}: queue the push on {@code src}'s
   * stopper kthread, which preempts whatever runs there.
   */
  void stopOneCpu(Cpu src) {
    activeBalances.value++;
    stopOneCpu(src, c -> activeBalanceStop(k.cpus[c]));
  }

  /**
   * {@code stop_one_cpu_nowait()}: queue {@code fn} on {@code cpu}'s stopper kthread, which
   * preempts whatever runs there; the work costs a task move ({@code lb.per_task}: both are a
   * {@code move_queued_task()} or a detach and attach).
   */
  void stopOneCpu(Cpu cpu, dev.schedlab.api.DeferredWork fn) {
    if (cpu.stopper == null) {
      cpu.stopper = newStopper(cpu);
    }
    k.deferred.queueKthreadWork(
        cpu.stopper, new WorkItem(k.costs.p(Param.LB_PER_TASK), fn, cpu.id));
  }

  /** A CPU's stopper kthread ({@code migration/N}): stop class, bound to the CPU. */
  private Task newStopper(Cpu cpu) {
    java.util.BitSet one = new java.util.BitSet();
    one.set(cpu.id);
    SchedulingClass stop = KernelBuilder.classFor(k.ext.classes(), dev.schedlab.api.Policy.STOP);
    Task t =
        new Task(
            1_000_000 + cpu.id,
            "migration/" + cpu.id,
            dev.schedlab.api.Policy.STOP,
            0,
            0,
            0,
            0,
            0,
            one,
            true,
            false,
            -1,
            new Op[] {new Op(Op.KWORK)},
            new java.util.SplittableRandom(0));
    t.sclass = stop;
    t.classRank = stop.rank();
    t.cpu = cpu.id;
    t.state = dev.schedlab.api.TaskState.INTERRUPTIBLE;
    t.workQueue = new java.util.ArrayDeque<>();
    t.sleepTimer = new HrTimer(k, cpu.id, null, t);
    return t;
  }

  /**
   * {@code active_load_balance_cpu_stop()} on the busiest CPU: the task it preempted is now queued;
   * move one task (cache hotness ignored) to the push CPU through the domain spanning both.
   */
  private void activeBalanceStop(Cpu busiest) {
    Cpu target = k.cpus[busiest.pushCpu];
    busiest.activeBalance = false;
    if (busiest.nrRunning <= 1) {
      return;
    }
    SchedDomain sd = null;
    for (SchedDomain d : target.domains) {
      if (d.span.get(busiest.id)) {
        sd = d;
        break;
      }
    }
    if (sd == null) {
      return;
    }
    for (Task t = busiest.queuedHead; t != null; t = t.rqNext) {
      if (canMigrate(t, busiest, target, sd, true)) {
        long saved = k.pathCost;
        migrate(t, busiest, target);
        k.pathCost = saved; // the stopper work's own cost covers it
        activePushes.value++;
        sd.nrBalanceFailed = 0;
        return;
      }
    }
  }

  /** Moves queued, not running {@code t} from {@code src} to {@code dst} and checks preemption. */
  void migrate(Task t, Cpu src, Cpu dst) {
    migrations.value++;
    k.pathCost += k.costs.p(Param.LB_PER_TASK);
    k.sched.moveQueued(t, src, dst);
  }

  /**
   * One {@code sched_balance_rq()} pass over {@code sd}: a fixed part plus every CPU's statistics.
   */
  private long scanCost(SchedDomain sd) {
    return k.costs.p(Param.LB_DOMAIN_BASE) + sd.weight * k.costs.p(Param.LB_PER_CPU_SCANNED);
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
      k.pathCost += k.costs.p(Param.NEWIDLE_EARLY_EXIT);
      return false;
    }
    SchedDomain top = cpu.domains[0];
    long gate =
        k.costs.on(Param.NEWIDLE_MIGRATION_COST_GATE)
            ? k.costs.p(Param.MIGRATION_COST)
            : top.maxNewidleLbCost;
    if (overloadedCpus == 0 || cpu.avgIdle < gate) {
      k.pathCost += k.costs.p(Param.NEWIDLE_EARLY_EXIT);
      next = Math.min(next, top.lastBalance + intervalJiffies(top, false));
      if (cpu.nextBalance > next) {
        cpu.nextBalance = next;
      }
      k.nohz.newidleFailed(cpu);
      return false;
    }
    newidleRuns.value++;
    updateBlockedAverages(cpu);
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
