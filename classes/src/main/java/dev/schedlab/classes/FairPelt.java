package dev.schedlab.classes;

import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.hook.PeltHook;
import java.util.Objects;

/**
 * PELT of the fair class: the per-entity and per-runqueue signals of {@link SchedAvg} kept as
 * fair.c keeps them.
 *
 * <p>Models: {@code update_load_avg()} (entity then runqueue, at the call sites of fair.c: enqueue,
 * dequeue, put_prev, set_next, tick and the balancer's blocked-load update), with the entity's load
 * = on_rq, runnable = on_rq and not delayed, running = curr, and the runqueue's load = its queued
 * weight, runnable = its runnable tasks, running = a curr; {@code attach_entity_load_avg()} when a
 * task first joins a runqueue or arrives from another CPU; {@code detach_entity_load_avg()} for a
 * queued task the balancer moves; {@code remove_entity_load_avg()} for a sleeping task woken on
 * another CPU (subtracted at the old runqueue's next update); a new task's {@code load_avg} = its
 * weight and {@code post_init_entity_util_avg()}; util_est as of v6.8 (11137d384996: one EWMA per
 * task, reset on increases, 1/4 weight for decreases, 1 % margin, updated at a sleeping dequeue,
 * summed over enqueued tasks per runqueue).
 *
 * <p>Does not model: the {@code UTIL_EST} feature switch (always on), uclamp.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code update_load_avg}, {@code
 * update_cfs_rq_load_avg}, {@code attach_entity_load_avg}, {@code detach_entity_load_avg}, {@code
 * remove_entity_load_avg}, {@code post_init_entity_util_avg}, {@code util_est_update}), {@code
 * kernel/sched/pelt.c}.
 */
final class FairPelt {
  /** {@code UTIL_EST_MARGIN}: 1 % of the capacity scale. */
  static final long UTIL_EST_MARGIN = SchedAvg.CAPACITY_SCALE / 100;

  private static final int UTIL_EST_WEIGHT_SHIFT = 2;

  private FairPelt() {}

  /** {@code __update_load_avg_se()}. */
  static void updateEntity(FairRq q, FairEntity se, long now) {
    long load = se.onRq ? 1 : 0;
    long runnable = se.onRq && !se.delayed ? se.runnableWeight() : 0;
    if (se.avg.updateLoadSum(now, load, runnable, q.curr == se)) {
      se.avg.updateLoadAvg(se.weight);
      se.utilAvgUnchanged = false; // cfs_se_util_change()
    }
  }

  /** {@code update_cfs_rq_load_avg()}: removed contributions first, then the runqueue's own. */
  static boolean updateRq(FairRq q, long now) {
    boolean decayed = false;
    SchedAvg sa = q.avg;
    if (q.hasRemoved) {
      int divider = sa.divider();
      sa.loadAvg = subPositive(sa.loadAvg, q.removedLoad);
      sa.loadSum =
          Math.max(
              subPositive(sa.loadSum, q.removedLoad * divider),
              sa.loadAvg * SchedAvg.PELT_MIN_DIVIDER);
      sa.utilAvg = subPositive(sa.utilAvg, q.removedUtil);
      sa.utilSum =
          Math.max(
              subPositive(sa.utilSum, q.removedUtil * divider),
              sa.utilAvg * SchedAvg.PELT_MIN_DIVIDER);
      sa.runnableAvg = subPositive(sa.runnableAvg, q.removedRunnable);
      sa.runnableSum =
          Math.max(
              subPositive(sa.runnableSum, q.removedRunnable * divider),
              sa.runnableAvg * SchedAvg.PELT_MIN_DIVIDER);
      q.removedLoad = 0;
      q.removedUtil = 0;
      q.removedRunnable = 0;
      q.hasRemoved = false;
      decayed = true;
    }
    if (sa.updateLoadSum(now, q.load(), q.hNrRunnable(), q.curr != null)) {
      sa.updateLoadAvg(1);
      decayed = true;
    }
    return decayed;
  }

  /** {@code update_load_avg()} without the group parts: entity (if attached), then runqueue. */
  static boolean update(FairRq q, FairEntity se, long now) {
    if (se != null && se.attachedTo == q) {
      updateEntity(q, se, now);
    }
    return updateRq(q, now);
  }

  /** {@code sync_entity_load_avg()}: decays a sleeping entity to its runqueue's last update. */
  static void sync(FairEntity se) {
    if (se.attachedTo != null
        && se.avg.updateLoadSum(se.attachedTo.avg.lastUpdateTime, 0, 0, false)) {
      se.avg.updateLoadAvg(se.weight);
    }
  }

  /** {@code attach_entity_load_avg()}: aligns the entity on the runqueue's period and adds it. */
  static void attach(FairRq q, FairEntity se) {
    SchedAvg a = se.avg;
    int divider = q.avg.divider();
    a.lastUpdateTime = q.avg.lastUpdateTime;
    a.periodContrib = q.avg.periodContrib;
    a.utilSum = a.utilAvg * divider;
    a.runnableSum = a.runnableAvg * divider;
    a.loadSum = a.loadAvg * divider;
    a.loadSum = se.weight < a.loadSum ? a.loadSum / se.weight : 1;
    q.avg.loadAvg += a.loadAvg;
    q.avg.loadSum += (long) se.weight * a.loadSum;
    q.avg.utilAvg += a.utilAvg;
    q.avg.utilSum += a.utilSum;
    q.avg.runnableAvg += a.runnableAvg;
    q.avg.runnableSum += a.runnableSum;
    se.attachedTo = q;
  }

  /** {@code detach_entity_load_avg()}: a queued entity leaves with its signals. */
  static void detach(FairRq q, FairEntity se) {
    SchedAvg a = se.avg;
    SchedAvg sa = q.avg;
    sa.loadAvg = subPositive(sa.loadAvg, a.loadAvg);
    sa.loadSum =
        Math.max(
            subPositive(sa.loadSum, (long) se.weight * a.loadSum),
            sa.loadAvg * SchedAvg.PELT_MIN_DIVIDER);
    sa.utilAvg = subPositive(sa.utilAvg, a.utilAvg);
    sa.utilSum =
        Math.max(subPositive(sa.utilSum, a.utilSum), sa.utilAvg * SchedAvg.PELT_MIN_DIVIDER);
    sa.runnableAvg = subPositive(sa.runnableAvg, a.runnableAvg);
    sa.runnableSum =
        Math.max(
            subPositive(sa.runnableSum, a.runnableSum), sa.runnableAvg * SchedAvg.PELT_MIN_DIVIDER);
    se.attachedTo = null;
  }

  /**
   * {@code remove_entity_load_avg()}: a sleeping entity moves away; its signals, decayed to the old
   * runqueue's last update, are subtracted there at its next update.
   */
  static void remove(FairRq q, FairEntity se) {
    if (se.avg.updateLoadSum(q.avg.lastUpdateTime, 0, 0, false)) {
      se.avg.updateLoadAvg(se.weight);
    }
    q.removedLoad += se.avg.loadAvg;
    q.removedUtil += se.avg.utilAvg;
    q.removedRunnable += se.avg.runnableAvg;
    q.hasRemoved = true;
    se.attachedTo = null;
  }

  /**
   * {@code init_entity_runnable_average()} and {@code post_init_entity_util_avg()}: a new task
   * starts with its weight as load and a share of its CPU's utilisation, at most half of the spare
   * capacity.
   */
  static void initNew(FairRq q, FairEntity se, long cpuCapacity) {
    SchedAvg a = se.avg;
    a.loadAvg = se.weight;
    long cap = (cpuCapacity - q.avg.utilAvg) / 2;
    if (cap > 0) {
      if (q.avg.utilAvg != 0) {
        a.utilAvg = Math.min(cap, q.avg.utilAvg * se.weight / (q.avg.loadAvg + 1));
      } else {
        a.utilAvg = cap;
      }
    }
    a.runnableAvg = a.utilAvg;
  }

  /** {@code cfs_rq->h_load}: the root's load_avg, scaled down through each group entity. */
  static long hLoad(FairRq q) {
    FairEntity owner = q.owner;
    if (owner == null) {
      return q.avg.loadAvg;
    }
    FairRq parent = Objects.requireNonNull(owner.cfsRq);
    return hLoad(parent) * owner.avg.loadAvg / (parent.avg.loadAvg + 1);
  }

  /**
   * {@code __update_blocked_fair()}: decays every group runqueue of {@code root}'s CPU (children
   * first) and the root; returns whether blocked load remains.
   */
  static boolean updateBlocked(FairGroup[] groups, FairRq root, long now) {
    boolean blocked = false;
    for (int g = groups.length - 1; g >= 1; g--) {
      FairRq q = groups[g].q[root.cpu];
      updateRq(q, now);
      groups[g].updateLoad(q);
      blocked |= q.avg.loadAvg != 0 || q.avg.utilAvg != 0;
    }
    updateRq(root, now);
    return blocked || root.avg.loadAvg != 0 || root.avg.utilAvg != 0;
  }

  /** {@code util_est_enqueue()}. */
  static void utilEstEnqueue(FairRq root, FairEntity se) {
    root.avg.utilEst += se.avg.utilEst;
  }

  /** {@code util_est_dequeue()}. */
  static void utilEstDequeue(FairRq root, FairEntity se) {
    root.avg.utilEst -= Math.min(root.avg.utilEst, se.avg.utilEst);
  }

  /** {@code util_est_update()} at a sleeping dequeue (v6.8+), as hook H18 finally decides. */
  static void utilEstUpdate(FairEntity se, long cpuCapacity, PeltHook hook) {
    if (se.utilAvgUnchanged) {
      return; // no PELT update since the last dequeue
    }
    long before = se.avg.utilEst;
    long mainline = mainlineUtilEst(se, cpuCapacity);
    boolean skipped = mainline == NO_SAMPLE;
    se.avg.utilEst =
        hook.utilEst(
            Objects.requireNonNull(se.task),
            before,
            se.avg.utilAvg,
            se.avg.runnableAvg,
            cpuCapacity,
            skipped ? before : mainline); // H18
    if (!skipped) {
      se.utilAvgUnchanged = true; // a skipped sample is retried at the next dequeue
    }
  }

  /** {@link #mainlineUtilEst}'s answer when the sample is not taken at all. */
  private static final long NO_SAMPLE = Long.MIN_VALUE;

  /** v6.8's util_est EWMA after a sleeping dequeue (unchanged when the sample is skipped). */
  private static long mainlineUtilEst(FairEntity se, long cpuCapacity) {
    long ewma = se.avg.utilEst;
    long dequeued = se.avg.utilAvg;
    if (ewma <= dequeued) {
      ewma = dequeued; // reset on increases: the average only smooths decreases
    } else {
      long lastEwmaDiff = ewma - dequeued;
      if (lastEwmaDiff >= UTIL_EST_MARGIN) {
        if (dequeued > cpuCapacity) {
          return NO_SAMPLE; // no idle time on this CPU: the sample would overestimate
        }
        if (dequeued + UTIL_EST_MARGIN >= se.avg.runnableAvg) {
          ewma = ((ewma << UTIL_EST_WEIGHT_SHIFT) - lastEwmaDiff) >> UTIL_EST_WEIGHT_SHIFT;
        }
      }
    }
    return ewma;
  }

  private static long subPositive(long a, long b) {
    return Math.max(0, a - b);
  }
}
