package dev.schedlab.classes;

import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * Per-task EEVDF state ({@code struct sched_entity}).
 *
 * <p>Models: weight, vruntime, virtual deadline, slice, saved lag, the RUN_TO_PARITY protection
 * point {@code vprot}, the on_rq / in-tree / sched_delayed bits, its node in the runqueue's {@link
 * FairTimeline} ({@code run_node}, {@code min_vruntime}, {@code min_slice}), and the PELT signals
 * ({@code se->avg}, see {@link FairPelt}); the hierarchy links of group scheduling: the runqueue it
 * is queued on ({@code cfs_rq_of(se)}), its parent group's entity and, for a group entity, the
 * group's own runqueue ({@code se->my_q}).
 *
 * <p>Does not model: {@code rel_deadline} (PLACE_REL_DEADLINE).
 *
 * <p>Kernel reference: {@code include/linux/sched.h} ({@code struct sched_entity}).
 */
final class FairEntity {
  /**
   * This entity's node in its runqueue's {@link FairTimeline} ({@code run_node}): declared first of
   * the references so the tree's walks read them near the keys they compare.
   */
  @Nullable FairEntity rbLeft;

  @Nullable FairEntity rbRight;
  @Nullable FairEntity rbParent;
  boolean rbRed;

  /** The task, or null for a group entity. */
  final @Nullable TaskView task;

  /** A group entity's own runqueue on its CPU ({@code se->my_q}), null for a task. */
  final @Nullable FairRq myQ;

  /** The runqueue it is (or was last) queued on. */
  @Nullable FairRq cfsRq;

  /** The parent group's entity on the same CPU, null at the top level. */
  @Nullable FairEntity parent;

  // HotSpot lays out the longs first, then the ints, booleans and references, each group in
  // declaration order: the longs the wakeup and dequeue paths read are declared before the keys
  // the timeline's walks compare, so those keys end beside the links (fewer cache lines a walk).
  /** {@code wakee_flips}, {@code wakee_flip_decay_ts} (jiffies) and {@code last_wakee}. */
  long wakeeFlips;

  long wakeeFlipDecayTs;
  @Nullable TaskView lastWakee;

  /** Lag saved at dequeue, in virtual time ({@code se->vlag}). */
  long vlag;

  int weight;
  long vruntime;
  long deadline;
  long slice;

  /**
   * The smallest vruntime and slice in this entity's subtree of the timeline ({@code min_vruntime},
   * {@code min_slice}), valid while it is in the tree.
   */
  long minVruntime;

  long minSlice;

  /** Protected until vruntime reaches this ({@code se->vprot}). */
  long vprot;

  /** Queued in this class (running or waiting or delayed), as the class sees it. */
  boolean onRq;

  /** In the deadline-ordered queue; false while it is the class's curr. */
  boolean inTree;

  /**
   * {@code se->sched_delayed}: asleep (a task) or with an empty runqueue (a group entity) but kept
   * queued until picked (DELAY_DEQUEUE).
   */
  boolean delayed;

  /** PELT signals ({@code se->avg}). */
  final SchedAvg avg = new SchedAvg();

  /**
   * The runqueue whose PELT sums include this entity's, or null ({@code last_update_time == 0}).
   */
  @Nullable FairRq attachedTo;

  /** {@code UTIL_AVG_UNCHANGED}: no PELT update since util_est last sampled the entity. */
  boolean utilAvgUnchanged;

  /** {@code p->recent_used_cpu}, or -1. */
  int recentUsedCpu = -1;

  FairEntity(TaskView task) {
    this.task = task;
    this.myQ = null;
  }

  /** A group entity owning {@code myQ}. */
  FairEntity(FairRq myQ) {
    this.task = null;
    this.myQ = myQ;
  }

  /** Depth in the hierarchy: 0 on a root runqueue. */
  int depth() {
    int d = 0;
    for (FairEntity e = parent; e != null; e = e.parent) {
      d++;
    }
    return d;
  }

  /**
   * {@code se_runnable()} while queued and not delayed: 1 for a task, the group's runnable tasks.
   */
  long runnableWeight() {
    return myQ == null ? 1 : myQ.hNrRunnable();
  }

  /** {@code protect_slice()}. */
  boolean isProtected() {
    return vprot - vruntime > 0;
  }

  /** {@code cancel_protect_slice()}. */
  void cancelProtection() {
    if (isProtected()) {
      vprot = vruntime;
    }
  }
}
