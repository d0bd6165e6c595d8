package dev.schedlab.classes;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Per-runqueue EEVDF state ({@code struct cfs_rq}) and the arithmetic on it.
 *
 * <p>Models: the deadline-ordered queue of waiting entities with the running entity ({@code curr})
 * kept outside it; {@code sum_w_vruntime} = Σ (v_i − v0)·w_i and {@code sum_weight} over the queue
 * relative to a reference {@code zero_vruntime} v0 that is moved to V after every change (so keys
 * stay small and nothing overflows); {@code avg_vruntime()} including curr with the kernel's floor
 * rounding; {@code vruntime_eligible()} by exact integer cross-multiplication; {@code pick_eevdf()}
 * with RUN_TO_PARITY.
 *
 * <p>The queue is {@link FairTimeline}, the kernel's augmented rb-tree through the entities, and
 * the pick is {@code pick_eevdf()}'s heap search on it (the eligible entity with the earliest
 * deadline, pid as tie-break).
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code avg_vruntime}, {@code
 * vruntime_eligible}, {@code update_zero_vruntime}, {@code pick_eevdf}, {@code update_entity_lag},
 * {@code cfs_rq_min_slice}).
 */
final class FairRq {
  /** PELT of this runqueue ({@code cfs_rq->avg}); blocked entities' signals stay in it. */
  final dev.schedlab.api.SchedAvg avg = new dev.schedlab.api.SchedAvg();

  /**
   * Signals of entities that left while asleep, subtracted at the next update ({@code removed}).
   */
  long removedLoad;

  long removedUtil;
  long removedRunnable;
  boolean hasRemoved;

  /** Tasks queued in this runqueue's hierarchy, delayed ones included ({@code h_nr_queued}). */
  int hNrQueued;

  /** Of those, tasks kept by DELAY_DEQUEUE ({@code h_nr_delayed}). */
  int hNrDelayed;

  /** The group this runqueue belongs to, null for a CPU's root runqueue. */
  final @Nullable FairGroup tg;

  /** The group entity that stands for this runqueue in its parent, null at the root. */
  @Nullable FairEntity owner;

  /** {@code tg_load_avg_contrib}: this runqueue's share in the group's {@code load_avg}. */
  long tgLoadContrib;

  // CFS bandwidth (cfs_rq->runtime_*)
  boolean runtimeEnabled;
  long runtimeRemaining;

  /** {@code throttled}: taken out of its parent until the period timer refills the quota. */
  boolean throttled;

  final int cpu;

  FairRq(int cpu, @Nullable FairGroup tg) {
    this.cpu = cpu;
    this.tg = tg;
  }

  final FairTimeline tree = new FairTimeline();

  /** The running entity of this class on this rq, or null ({@code cfs_rq->curr}). */
  @Nullable FairEntity curr;

  long zeroVruntime;
  long sumWKey;
  long sumWeight;

  /** Queued entities including curr and delayed ones ({@code cfs_rq->nr_queued}). */
  int nrQueued;

  /** {@code h_nr_runnable}: queued tasks that are not delayed. */
  int hNrRunnable() {
    return hNrQueued - hNrDelayed;
  }

  /** The group's CFS bandwidth; only for a runqueue with {@link #runtimeEnabled}. */
  FairBandwidth bandwidth() {
    return Objects.requireNonNull(Objects.requireNonNull(tg).bandwidth);
  }

  /** The top-level runqueue of this one's CPU is reached through {@link #owner}s. */
  @Nullable FairRq parentRq() {
    return owner == null ? null : owner.cfsRq;
  }

  void add(FairEntity se) {
    tree.insert(se);
    se.inTree = true;
    sumWKey += (se.vruntime - zeroVruntime) * se.weight;
    sumWeight += se.weight;
  }

  void remove(FairEntity se) {
    tree.remove(se);
    se.inTree = false;
    sumWKey -= (se.vruntime - zeroVruntime) * se.weight;
    sumWeight -= se.weight;
  }

  private @Nullable FairEntity queuedCurr() {
    return curr != null && curr.onRq ? curr : null;
  }

  /** Σ w over the queue plus curr when it is queued. */
  long load() {
    FairEntity c = queuedCurr();
    return sumWeight + (c == null ? 0 : c.weight);
  }

  private long avgKeySum() {
    FairEntity c = queuedCurr();
    return sumWKey + (c == null ? 0 : (c.vruntime - zeroVruntime) * c.weight);
  }

  /** {@code avg_vruntime()}: V, the weighted average vruntime, rounded toward minus infinity. */
  long avgVruntime() {
    long avg = avgKeySum();
    long load = load();
    if (load != 0) {
      avg = Math.floorDiv(avg, load);
    }
    return zeroVruntime + avg;
  }

  /** {@code vruntime_eligible()}: v <= V without dividing. */
  boolean eligible(long vruntime) {
    return avgKeySum() >= (vruntime - zeroVruntime) * load();
  }

  /** Moves the reference to V, keeping Σ (v − v0)·w consistent ({@code update_zero_vruntime}). */
  void rebase() {
    long v = avgVruntime();
    sumWKey -= (v - zeroVruntime) * sumWeight;
    zeroVruntime = v;
  }

  /** {@code update_entity_lag()}: vlag = V − v clamped to ±max(2·slice, TICK_NSEC) virtual. */
  void updateEntityLag(FairEntity se, long tickNs) {
    long vlag = avgVruntime() - se.vruntime;
    long limit = FairWeights.calcDeltaFair(Math.max(2 * se.slice, tickNs), se.weight);
    se.vlag = Math.max(-limit, Math.min(limit, vlag));
  }

  /**
   * {@code reweight_entity()} + {@code reweight_eevdf()}: a queued entity's lag and relative
   * deadline are scaled by old / new weight so that V does not jump.
   */
  void reweight(FairEntity se, int weight) {
    int old = se.weight;
    if (!se.onRq) {
      se.vlag = se.vlag * old / weight;
      se.weight = weight;
      return;
    }
    long v = avgVruntime();
    boolean wasInTree = se.inTree;
    if (wasInTree) {
      remove(se);
    }
    long vlag = (v - se.vruntime) * old / weight;
    long vslice = (se.deadline - v) * old / weight;
    se.vruntime = v - vlag;
    se.deadline = v + vslice;
    se.weight = weight;
    dev.schedlab.api.SchedAvg a = se.avg;
    if (se.attachedTo == this) {
      long before = a.loadAvg;
      a.loadAvg = (long) weight * a.loadSum / a.divider();
      avg.loadAvg = Math.max(0, avg.loadAvg - before + a.loadAvg);
      avg.loadSum =
          Math.max(
              avg.loadSum + ((long) weight - old) * a.loadSum,
              avg.loadAvg * dev.schedlab.api.SchedAvg.PELT_MIN_DIVIDER);
    }
    if (wasInTree) {
      add(se);
    }
    rebase();
  }

  /** {@code cfs_rq_min_slice()}: the smallest slice among queued entities, or Long.MAX_VALUE. */
  long minSlice() {
    FairEntity c = queuedCurr();
    return Math.min(c == null ? Long.MAX_VALUE : c.slice, tree.minSlice());
  }

  /**
   * {@code pick_eevdf()}: the eligible entity with the earliest virtual deadline, keeping a
   * protected curr when {@code runToParity}. May return a delayed entity.
   */
  @Nullable FairEntity pickEevdf(boolean runToParity) {
    FairEntity c = queuedCurr();
    int n = tree.size() + (c == null ? 0 : 1);
    if (n == 0) {
      return null;
    }
    if (n == 1) {
      return c != null ? c : tree.first();
    }
    if (c != null && !eligible(c.vruntime)) {
      c = null;
    }
    if (runToParity && c != null && c.isProtected()) {
      return c;
    }
    long keySum = avgKeySum();
    long load = load();
    FairEntity best = null;
    FairEntity first = tree.first();
    if (first != null && keySum >= (first.vruntime - zeroVruntime) * load) {
      best = first; // the leftmost entity is eligible
    } else {
      // The heap search: a left subtree with an eligible min_vruntime holds the earliest
      // eligible deadline; otherwise this node, if eligible; otherwise the right subtree.
      FairEntity node = tree.root();
      while (node != null) {
        FairEntity left = node.rbLeft;
        if (left != null && keySum >= (left.minVruntime - zeroVruntime) * load) {
          node = left;
          continue;
        }
        if (keySum >= (node.vruntime - zeroVruntime) * load) {
          best = node;
          break;
        }
        node = node.rbRight;
      }
    }
    if (best == null || (c != null && c.deadline - best.deadline < 0)) {
      best = c;
    }
    // Some queued entity is always eligible; the fallback only guards rounding corner cases.
    return best != null ? best : tree.first();
  }
}
