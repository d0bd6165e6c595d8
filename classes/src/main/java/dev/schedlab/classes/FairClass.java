package dev.schedlab.classes;

import dev.schedlab.api.LoadTracking;
import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.LoadAvgView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * The fair class: EEVDF as of v6.12–v6.13 for SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE and (as the
 * fallback when no extension class is loaded) SCHED_EXT.
 *
 * <p>Models: weights and {@code calc_delta_fair}; V including curr; eligibility v ≤ V; slices
 * (base slice or the task's custom slice, clamped to 0.1–100 ms) and virtual deadlines;
 * {@code update_deadline} with a SLICE_EXPIRY_TICK reschedule when more than one entity is queued;
 * {@code pick_eevdf} with RUN_TO_PARITY ({@code vprot} = min(deadline, v + min queued slice));
 * {@code place_entity} with PLACE_LAG and PLACE_DEADLINE_INITIAL; lag clamping on dequeue;
 * DELAY_DEQUEUE / DELAY_ZERO, including the in-place requeue of a woken delayed task
 * ({@code requeue_delayed_entity}: with DELAY_ZERO a task whose lag became positive is re-placed
 * at zero lag, as the kernel does); {@code check_preempt_wakeup_fair} with PREEMPT_SHORT and
 * WAKEUP_PREEMPTION; PELT load tracking of tasks and runqueues ({@link FairPelt}, read by the
 * engine's balancer through {@link LoadTracking}); {@code select_task_rq_fair()} for wakeups
 * and forks ({@link FairSelect}: wake_affine idle and weight, WF_SYNC, SIS_UTIL,
 * select_idle_sibling with recent_used_cpu and SMT/core searches, find_idlest_cpu).
 *
 * <p>Does not model: cgroup hierarchy and group entities, reweighting of a queued task (the
 * weight is sampled at enqueue), PLACE_REL_DEADLINE, NEXT_BUDDY (so the PICK_BUDDY feature is
 * read but no buddy is ever set), yield, CFS bandwidth, EAS and uclamp; load balancing and
 * newidle balance are the engine's. SCHED_EXT wakees preempt like SCHED_NORMAL (the kernel's
 * {@code p->policy != SCHED_NORMAL} test would exclude them). Only BATCH and IDLE never preempt.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code update_curr}, {@code update_deadline},
 * {@code place_entity}, {@code enqueue_entity}, {@code dequeue_entity},
 * {@code requeue_delayed_entity}, {@code pick_next_entity}, {@code set_next_entity},
 * {@code put_prev_entity}, {@code check_preempt_wakeup_fair}); tip commit 152e11f6df29
 * ("sched/fair: Implement delayed dequeue").
 */
public final class FairClass implements SchedulingClass, LoadTracking {
  private static final long MIN_CUSTOM_SLICE_NS = 100_000L;
  private static final long MAX_CUSTOM_SLICE_NS = 100_000_000L;

  private SchedServices services;
  private MachineView machine;
  private FairFeatures feat;
  private FairRq[] rqs;
  private FairSelect select;

  @Override
  public String name() {
    return "fair";
  }

  @Override
  public int rank() {
    return RANK_FAIR;
  }

  @Override
  public boolean handles(Policy policy) {
    return policy == Policy.NORMAL
        || policy == Policy.BATCH
        || policy == Policy.IDLE
        || policy == Policy.EXT;
  }

  @Override
  public void init(MachineView machine, SchedServices services) {
    this.machine = machine;
    this.services = services;
    this.feat = FairFeatures.read(machine, services);
    rqs = new FairRq[machine.nrCpus()];
    for (int i = 0; i < rqs.length; i++) {
      rqs[i] = new FairRq();
    }
    select = new FairSelect(machine, services, this);
  }

  /** The features and tunables in force (for tests and reports). */
  FairFeatures features() {
    return feat;
  }

  /** The per-CPU state (for tests). */
  FairRq rq(int cpu) {
    return rqs[cpu];
  }

  /** The task's entity, created on first use (a wakeup or fork may look before any enqueue). */
  FairEntity entity(TaskView p) {
    FairEntity se = entityOf(p);
    if (se == null) {
      se = new FairEntity(p);
      p.setClassData(se);
    }
    return se;
  }

  static FairEntity entityOf(TaskView p) {
    return p != null && p.classData() instanceof FairEntity ? (FairEntity) p.classData() : null;
  }

  private long sliceOf(TaskView p) {
    long custom = p.customSliceNs();
    if (custom > 0) {
      return Math.max(MIN_CUSTOM_SLICE_NS, Math.min(MAX_CUSTOM_SLICE_NS, custom));
    }
    return feat.baseSliceNs();
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    FairRq q = rqs[rq.cpu()];
    long now = rq.clockPelt();
    FairEntity se = entity(p);
    if (se.delayed) {
      FairPelt.update(q, se, now);
      FairPelt.utilEstEnqueue(q, se);
      requeueDelayed(q, se);
      return;
    }
    if (se.onRq) {
      return; // already queued; nothing to do (defensive)
    }
    se.weight = p.weight();
    se.slice = sliceOf(p);
    FairPelt.utilEstEnqueue(q, se);
    if (se.attachedTo != null && se.attachedTo != q) {
      FairPelt.remove(se.attachedTo, se); // migrate_task_rq_fair(): woken on another CPU
    }
    if ((flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
      FairPelt.initNew(q, se, machine.cpu(rq.cpu()).capacityOrig());
    }
    place(q, se, flags);
    FairPelt.update(q, se, now);
    if (se.attachedTo == null) {
      FairPelt.attach(q, se);
    }
    se.onRq = true;
    q.nrQueued++;
    if (p.policy() == Policy.IDLE) {
      q.nrIdlePolicy++;
    }
    if (q.curr != se) {
      q.add(se); // curr stays outside the queue, as __enqueue_entity is skipped for it
    }
    q.rebase();
  }

  /** {@code place_entity()}. */
  private void place(FairRq q, FairEntity se, int flags) {
    long v = q.avgVruntime();
    long vslice = FairWeights.calcDeltaFair(se.slice, se.weight);
    long lag = 0;
    if (feat.placeLag() && q.nrQueued > 0 && se.vlag != 0) {
      // Scale the lag so that it survives the join: the entity shifts V by its own weight.
      long load = q.load();
      lag = se.vlag * (load + se.weight);
      lag /= Math.max(1, load);
    }
    se.vruntime = v - lag;
    if (feat.placeDeadlineInitial() && (flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
      vslice /= 2; // new tasks start with half a slice so they do not preempt at once
    }
    se.deadline = se.vruntime + vslice;
  }

  /** {@code requeue_delayed_entity()}: a delayed task woke up; keep it where it is. */
  private void requeueDelayed(FairRq q, FairEntity se) {
    if (feat.delayZero()) {
      q.updateEntityLag(se, feat.tickNs());
      if (se.vlag > 0) {
        q.nrQueued--;
        if (se.inTree) {
          q.remove(se);
        }
        se.vlag = 0;
        place(q, se, 0);
        if (q.curr != se) {
          q.add(se);
        }
        q.nrQueued++;
      }
    }
    se.delayed = false;
    q.nrDelayed--;
    q.rebase();
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    FairRq q = rqs[rq.cpu()];
    FairEntity se = entityOf(p);
    if (se == null || !se.onRq) {
      return true;
    }
    long now = rq.clockPelt();
    boolean migrating = (flags & SchedFlags.DEQUEUE_MIGRATING) != 0;
    if (se.delayed) {
      FairPelt.update(q, se, now);
      finishDelayed(q, se); // DEQUEUE_DELAYED, or a delayed task being migrated
      if (migrating) {
        FairPelt.detach(q, se);
      }
      return true;
    }
    boolean sleep = (flags & SchedFlags.DEQUEUE_SLEEP) != 0;
    FairPelt.utilEstDequeue(q, se);
    if (sleep) {
      FairPelt.utilEstUpdate(se, machine.cpu(rq.cpu()).capacityOrig());
    }
    FairPelt.update(q, se, now);
    if (feat.delayDequeue() && sleep && !q.eligible(se.vruntime)) {
      se.delayed = true; // negative lag: keep competing until picked, then finish the dequeue
      q.nrDelayed++;
      return false;
    }
    q.updateEntityLag(se, feat.tickNs());
    removeEntity(q, se);
    if (migrating) {
      FairPelt.detach(q, se);
    }
    return true;
  }

  private void finishDelayed(FairRq q, FairEntity se) {
    q.updateEntityLag(se, feat.tickNs());
    if (feat.delayZero() && se.vlag > 0) {
      se.vlag = 0; // finish_delayed_dequeue_entity(): positive lag earned while delayed is lost
    }
    se.delayed = false;
    q.nrDelayed--;
    removeEntity(q, se);
  }

  private void removeEntity(FairRq q, FairEntity se) {
    if (se.inTree) {
      q.remove(se);
    }
    se.onRq = false;
    q.nrQueued--;
    if (se.task.policy() == Policy.IDLE) {
      q.nrIdlePolicy--;
    }
    q.rebase();
  }

  @Override
  public TaskView pickNext(RqView rq) {
    FairRq q = rqs[rq.cpu()];
    while (true) {
      FairEntity se = q.pickEevdf(feat.runToParity());
      if (se == null) {
        return null;
      }
      if (!se.delayed) {
        return se.task;
      }
      // pick_next_entity(): picking a delayed entity completes its dequeue; then pick again.
      services.completeDelayedDequeue(se.task);
      if (se.onRq && se.delayed) {
        FairPelt.update(q, se, rq.clockPelt());
        finishDelayed(q, se);
      }
    }
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {
    FairRq q = rqs[rq.cpu()];
    FairEntity se = entityOf(prev);
    if (se == null || q.curr != se) {
      return;
    }
    if (se.onRq && !se.inTree) {
      q.add(se);
    }
    if (se.onRq) {
      FairPelt.update(q, se, rq.clockPelt());
    }
    q.curr = null;
  }

  @Override
  public void setNext(RqView rq, TaskView next) {
    FairRq q = rqs[rq.cpu()];
    FairEntity se = entityOf(next);
    if (se == null) {
      return;
    }
    if (se.inTree) {
      q.remove(se); // V is unchanged: curr is added back in by avg_vruntime()
    }
    if (se.onRq) {
      FairPelt.update(q, se, rq.clockPelt());
    }
    q.curr = se;
    setProtection(q, se);
  }

  /**
   * {@code set_protect_slice()}: protected until the deadline, or with RUN_TO_PARITY until the
   * smallest queued slice is used up. The point is kept even without RUN_TO_PARITY (as v6.12's
   * {@code vlag = deadline} hack is) because PREEMPT_SHORT's check reads it; only pick honours it.
   */
  private void setProtection(FairRq q, FairEntity se) {
    if (!feat.runToParity()) {
      se.vprot = se.deadline;
      return;
    }
    long slice = Math.min(q.minSlice(), se.slice);
    long vprot = se.deadline;
    if (slice != se.slice) {
      long limit = se.vruntime + FairWeights.calcDeltaFair(slice, se.weight);
      vprot = limit - vprot < 0 ? limit : vprot;
    }
    se.vprot = vprot;
  }

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    FairRq q = rqs[rq.cpu()];
    FairEntity se = entityOf(curr);
    if (se == null || q.curr != se || deltaExecNs <= 0) {
      return;
    }
    se.vruntime += FairWeights.calcDeltaFair(deltaExecNs, se.weight);
    boolean expired = updateDeadline(se);
    q.rebase();
    if (q.nrQueued <= 1) {
      return;
    }
    if (expired || didPreemptShort(q, se)) {
      services.resched(rq.cpu(), ReschedReason.SLICE_EXPIRY_TICK);
    }
  }

  /** {@code update_deadline()}: a new request once the old deadline has been reached. */
  private boolean updateDeadline(FairEntity se) {
    if (se.vruntime - se.deadline < 0) {
      return false;
    }
    se.slice = sliceOf(se.task);
    se.deadline = se.vruntime + FairWeights.calcDeltaFair(se.slice, se.weight);
    return true;
  }

  /** {@code did_preempt_short()}: curr's protection is over and it is no longer eligible. */
  private boolean didPreemptShort(FairRq q, FairEntity se) {
    return feat.preemptShort() && !se.isProtected() && !q.eligible(se.vruntime);
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    // entity_tick(): the slice-expiry check ran in updateCurr(), which the engine calls first.
    FairRq q = rqs[rq.cpu()];
    FairEntity se = entityOf(curr);
    if (se != null && q.curr == se) {
      FairPelt.update(q, se, rq.clockPelt());
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    FairRq q = rqs[rq.cpu()];
    TaskView currTask = rq.curr();
    FairEntity se = entityOf(currTask);
    FairEntity pse = entityOf(p);
    if (se == null || pse == null || se == pse || q.curr != se) {
      return;
    }
    if (machine.cpu(rq.cpu()).needResched() || !feat.wakeupPreemption()) {
      return;
    }
    boolean currIdle = currTask.policy() == Policy.IDLE;
    boolean wakeeIdle = p.policy() == Policy.IDLE;
    if (currIdle && !wakeeIdle) {
      services.resched(rq.cpu(), ReschedReason.WAKEUP_SAME_CLASS);
      return;
    }
    if (wakeeIdle || p.policy() == Policy.BATCH) {
      return;
    }
    // update_curr() was done by the engine before this call.
    if (doPreemptShort(q, pse, se)) {
      se.cancelProtection();
    }
    if (q.pickEevdf(feat.runToParity()) == pse) {
      services.resched(rq.cpu(), ReschedReason.WAKEUP_SAME_CLASS);
    }
  }

  /** {@code do_preempt_short()}: an eligible wakee with a shorter slice may break protection. */
  private boolean doPreemptShort(FairRq q, FairEntity pse, FairEntity se) {
    if (!feat.preemptShort() || pse.slice >= se.slice || !q.eligible(pse.vruntime)) {
      return false;
    }
    return pse.deadline - se.deadline < 0 || !q.eligible(se.vruntime);
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    return select.select(p, prevCpu, wakerCpu, wakeFlags);
  }

  @Override
  public int nrQueued(RqView rq) {
    return rqs[rq.cpu()].nrQueued;
  }

  // ---------------- LoadTracking ----------------

  @Override
  public LoadAvgView taskAvg(TaskView p) {
    FairEntity se = entityOf(p);
    return se == null ? LoadAvgView.ZERO : se.avg;
  }

  @Override
  public LoadAvgView rqAvg(int cpu) {
    return rqs[cpu].avg;
  }

  @Override
  public long taskHLoad(TaskView p) {
    FairEntity se = entityOf(p);
    if (se == null) {
      return 0;
    }
    // task_h_load(): the root runqueue's h_load is its own load_avg.
    FairRq q = se.attachedTo != null ? se.attachedTo : rqs[p.cpu()];
    long rqLoad = q.avg.loadAvg;
    return se.avg.loadAvg * rqLoad / (rqLoad + 1);
  }

  @Override
  public boolean updateBlocked(int cpu) {
    FairRq q = rqs[cpu];
    FairPelt.updateRq(q, machine.cpu(cpu).rq().clockPelt());
    return q.avg.loadAvg != 0 || q.avg.utilAvg != 0;
  }
}
