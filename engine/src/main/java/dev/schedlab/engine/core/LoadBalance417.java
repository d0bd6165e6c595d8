package dev.schedlab.engine.core;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * One {@code load_balance()} pass as v4.17 does it ({@code feature.LB_AVG_LOAD}): the busiest group
 * and runqueue and the imbalance are {@link LbEnv417}'s; this class moves tasks by their load and
 * handles pinned tasks, active balance and the interval.
 *
 * <p>Models: {@code detach_tasks()} by {@code task_h_load()} against the imbalance (skipping a task
 * whose half load exceeds it, at most {@code sysctl_sched_nr_migrate} tasks looked at); {@code
 * can_migrate_task()} with LBF_ALL_PINNED (the busiest CPU left out and the pass redone, the
 * interval doubled up to {@code MAX_PINNED_INTERVAL}) and LBF_SOME_PINNED (the parent level's group
 * marked imbalanced, {@code sgc->imbalance}, cleared by a balanced pass); {@code
 * need_active_balance()}; the kick of active balance (then {@code nr_balance_failed} =
 * cache_nice_tries + 1 and the interval doubled); the interval doubled when nothing was unbalanced,
 * newidle passes included (until 3f130a37c442 in v5.1).
 *
 * <p>Does not model: the LBF_DST_PINNED retry with another destination CPU, {@code
 * CACHE_HOT_BUDDY}, NUMA balancing's {@code migrate_degrades_locality()}, {@code
 * should_we_balance()} (as the v6.12 path).
 *
 * <p>Kernel reference: v4.17 {@code kernel/sched/fair.c} ({@code load_balance}, {@code
 * detach_tasks}, {@code can_migrate_task}, {@code need_active_balance}); v5.5's 0b0695f2b34a
 * "sched/fair: Rework load_balance()" replaced them with migration types.
 */
final class LoadBalance417 {
  /** {@code MAX_PINNED_INTERVAL} (ms): the interval's cap after an all-pinned pass. */
  static final long MAX_PINNED_INTERVAL_MS = 512;

  private final Kernel k;
  private final LoadBalancer lb;
  private final LbEnv417 env;
  private final BitSet excluded;

  private boolean allPinned;
  private boolean somePinned;

  LoadBalance417(Kernel k, LoadBalancer lb) {
    this.k = k;
    this.lb = lb;
    this.env = new LbEnv417(k);
    this.excluded = env.excluded;
  }

  /** {@code load_balance()} of {@code dst} at {@code sd}; returns whether a task moved. */
  boolean loadBalance(Cpu dst, SchedDomain sd, int idle) {
    excluded.clear();
    allPinned = false;
    GroupCapacity parentGroup = parentGroup(dst, sd);
    while (true) {
      int group = env.findBusiestGroup(dst, sd, idle);
      Cpu src = group < 0 ? null : env.findBusiestQueue(sd, sd.groups[group]);
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
        if (parentGroup != null && somePinned && env.imbalance > 0) {
          parentGroup.imbalance = true;
        }
        if (allPinned) {
          excluded.set(src.id);
          if (spanLeftBeyond(sd, sd.groups[env.localGroup])) {
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

  /**
   * {@code detach_tasks()} + {@code attach_tasks()} of v4.17: the least recently queued tasks
   * first, each allowed by {@code can_migrate_task()} and moved when half its {@code task_h_load()}
   * fits the imbalance, which it then lowers by its whole load.
   */
  private int detachTasks(Cpu src, Cpu dst, SchedDomain sd, int idle) {
    if (env.imbalance <= 0) {
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
        if (!lbMinSkip && load / 2 <= env.imbalance) {
          lb.migrate(t, src, dst);
          moved++;
          env.imbalance -= load;
          if (lb.newidlePullStops(idle)) {
            break;
          }
          if (env.imbalance <= 0) {
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
    if (t == src.curr || t.onCpu || t.state != TaskState.RUNNING) {
      return false;
    }
    return !lb.taskHot(t, sd) || sd.nrBalanceFailed > LoadBalancer.cacheNiceTries(sd);
  }
}
