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
import dev.schedlab.api.view.TaskGroupView;
import dev.schedlab.api.view.TaskView;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The fair class: EEVDF as of v6.12–v6.13 for SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE and (as the
 * fallback when no extension class is loaded) SCHED_EXT.
 *
 * <p>Models: weights and {@code calc_delta_fair}; V including curr; eligibility v ≤ V; slices (base
 * slice or the task's custom slice, clamped to 0.1–100 ms) and virtual deadlines; {@code
 * update_deadline} with a SLICE_EXPIRY_TICK reschedule when more than one entity is queued; {@code
 * pick_eevdf} with RUN_TO_PARITY ({@code vprot} = min(deadline, v + min queued slice)); with the
 * kernel-version feature PROTECT_QUANTUM, v6.17+'s slice protection (a quantum honoured with or
 * without RUN_TO_PARITY, a reschedule from {@code update_curr()} once it ends with another entity
 * queued, {@code update_protect_slice()} for a shorter-slice wakee that does not preempt); {@code
 * place_entity} with PLACE_LAG and PLACE_DEADLINE_INITIAL; lag clamping on dequeue; DELAY_DEQUEUE /
 * DELAY_ZERO of tasks and group entities, including the in-place requeue of a woken delayed task or
 * of the delayed entity of a group a task joins ({@code requeue_delayed_entity}: with DELAY_ZERO an
 * entity whose lag became positive is re-placed at zero lag, as the kernel does); {@code
 * check_preempt_wakeup_fair} with PREEMPT_SHORT and WAKEUP_PREEMPTION, and with the kernel-version
 * feature FORK_NO_PREEMPT the NEXT_BUDDY rework's return for a new task or a delayed wakee (after
 * v6.18; its WF_SYNC and buddy rules need NEXT_BUDDY, off by default); PELT load tracking of tasks
 * and runqueues ({@link FairPelt}, read by the engine's balancer through {@link LoadTracking}, with
 * v4.17's {@code weighted_cpuload()}, the queued entities' runnable load, for its v4.17 balancer);
 * {@code select_task_rq_fair()} for wakeups and forks ({@link FairSelect}: wake_affine idle and
 * weight, WF_SYNC, SIS_UTIL, select_idle_sibling with recent_used_cpu and SMT/core searches,
 * find_idlest_cpu; v4.17's SIS_PROP scan depth and select_idle_core/cpu/smt order as kernel-version
 * features, {@link FairSelectIdle417}).
 *
 * <p>Task groups ({@link FairGroup}: per-CPU group runqueues and entities, the hierarchical pick,
 * update_curr at every level, find_matching_se for wakeup preemption, group shares by
 * calc_group_shares and reweight_entity; {@code pick_next_task_fair()}'s switch, which puts and
 * sets entities only below the lowest common ancestor of prev and next, so a group entity that
 * stays current while its tasks alternate keeps the slice protection it got when it was picked) and
 * CFS bandwidth ({@link FairBandwidth}: quota pool, throttling and unthrottling with the period and
 * slack timers).
 *
 * <p>Elsewhere: periodic, idle and newidle load balancing by load (with active balance and misfit
 * migration) are the engine's ({@code LoadBalancer}: v6.12's, or v4.17's avg_load arithmetic with
 * {@code feature.LB_AVG_LOAD}); RT and deadline push and pull are the rt and deadline classes'.
 *
 * <p>Does not model: reweighting of a queued task (a task's weight is sampled at enqueue),
 * PLACE_REL_DEADLINE, NEXT_BUDDY (so the PICK_BUDDY feature is read but no buddy is ever set),
 * {@code yield_to()}, EAS and uclamp, and v4.17's decayed {@code cpu_load[]} indexes. SCHED_EXT
 * wakees preempt like SCHED_NORMAL (the kernel's {@code p->policy != SCHED_NORMAL} test would
 * exclude them). Only BATCH and IDLE never preempt.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code update_curr}, {@code update_deadline},
 * {@code place_entity}, {@code enqueue_entity}, {@code dequeue_entity}, {@code
 * requeue_delayed_entity}, {@code pick_next_entity}, {@code set_next_entity}, {@code
 * put_prev_entity}, {@code check_preempt_wakeup_fair}, {@code enqueue_task_fair}, {@code
 * dequeue_entities}, {@code pick_task_fair}, {@code pick_next_task_fair}, {@code throttle_cfs_rq},
 * {@code unthrottle_cfs_rq}, {@code task_h_load}); tip commit 152e11f6df29 ("sched/fair: Implement
 * delayed dequeue").
 */
public final class FairClass implements SchedulingClass, LoadTracking {
  private static final long MIN_CUSTOM_SLICE_NS = 100_000L;
  private static final long MAX_CUSTOM_SLICE_NS = 100_000_000L;

  private SchedServices services;
  private MachineView machine;
  private FairFeatures feat;
  private FairRq[] rqs;

  /**
   * Queued SCHED_IDLE tasks of each CPU's root runqueue ({@code h_nr_idle}), packed by CPU so the
   * wakeup scan's {@code sched_idle_cpu()} reads no runqueue.
   */
  int[] nrIdlePolicy = new int[0];

  /** The sum of {@link #nrIdlePolicy}: with none queued, no CPU is {@code sched_idle_cpu()}. */
  int nrIdlePolicyTotal;

  private FairSelect select;

  /** Task groups by id; index 0 is the root. */
  private FairGroup[] groups;

  /**
   * Per CPU, the fair task current at the last pick and the different task picked: the switch
   * {@link #putPrev} and {@link #setNext} then make, which leaves their common ancestors in place.
   */
  private @Nullable TaskView[] switchFrom = new TaskView[0];

  private @Nullable TaskView[] switchTo = new TaskView[0];

  private boolean bandwidthUsed;
  private FairHierarchy hierarchy;
  private dev.schedlab.api.hook.PeltHook peltHook = dev.schedlab.api.hook.PeltHook.MAINLINE;

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
    nrIdlePolicy = new int[rqs.length];
    switchFrom = new TaskView[rqs.length];
    switchTo = new TaskView[rqs.length];
    for (int i = 0; i < rqs.length; i++) {
      rqs[i] = new FairRq(i, null);
    }
    hierarchy = new FairHierarchy(this, machine, services, feat);
    List<? extends TaskGroupView> views = machine.taskGroups();
    groups = new FairGroup[Math.max(1, views.size())];
    groups[0] = new FairGroup(rqs);
    for (int i = 1; i < views.size(); i++) {
      TaskGroupView v = views.get(i);
      FairGroup g = new FairGroup(v, groups[v.parentId()], rqs.length);
      if (v.quotaNs() >= 0) {
        g.bandwidth = new FairBandwidth(hierarchy, services, g, v.quotaNs(), v.periodNs());
        bandwidthUsed = true;
      }
      groups[i] = g;
    }
    select = new FairSelect(machine, services, this);
    dev.schedlab.api.hook.PeltHook h = services.hook(dev.schedlab.api.hook.PeltHook.class);
    peltHook = h != null ? h : dev.schedlab.api.hook.PeltHook.MAINLINE;
  }

  /** The features and tunables in force (for tests and reports). */
  FairFeatures features() {
    return feat;
  }

  /** The per-CPU root runqueue. */
  FairRq rq(int cpu) {
    return rqs[cpu];
  }

  /** Group {@code id} (for tests). */
  FairGroup group(int id) {
    return groups[id];
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

  static @Nullable FairEntity entityOf(@Nullable TaskView p) {
    return p != null && p.classData() instanceof FairEntity ? (FairEntity) p.classData() : null;
  }

  private long sliceOf(TaskView p) {
    long custom = p.customSliceNs();
    if (custom > 0) {
      return Math.max(MIN_CUSTOM_SLICE_NS, Math.min(MAX_CUSTOM_SLICE_NS, custom));
    }
    return feat.baseSliceNs();
  }

  // ---------------- enqueue ----------------

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    int cpu = rq.cpu();
    long now = rq.clockPelt();
    FairEntity se = entity(p);
    FairRq root = rqs[cpu];
    if (se.delayed) {
      FairRq q = Objects.requireNonNull(se.cfsRq); // a delayed entity is still queued
      FairPelt.update(q, se, now);
      FairPelt.utilEstEnqueue(root, se);
      hierarchy.requeueDelayed(q, se);
      hierarchy.addDelayed(se, -1);
      return;
    }
    if (se.onRq) {
      return; // already queued; nothing to do (defensive)
    }
    se.weight = p.weight();
    se.slice = sliceOf(p);
    FairGroup g = groups[p.taskGroup() < groups.length ? p.taskGroup() : 0];
    FairRq leaf = g.q[cpu];
    se.cfsRq = leaf;
    se.parent = g.se == null ? null : g.se[cpu];
    FairPelt.utilEstEnqueue(root, se);
    if (se.attachedTo != null && se.attachedTo != leaf) {
      FairPelt.remove(se.attachedTo, se); // migrate_task_rq_fair(): woken on another CPU
    }
    if ((flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
      FairPelt.initNew(leaf, se, machine.cpu(cpu).capacityOrig());
    }
    if (p.policy() == Policy.IDLE) {
      nrIdlePolicy[cpu]++;
      nrIdlePolicyTotal++;
    }
    if (!hierarchy.enqueueUp(se, flags, now, 1, 0, true)) {
      services.changeNrRunning(cpu, -1); // held back under a throttled group
    }
  }

  // ---------------- dequeue ----------------

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    FairEntity se = entityOf(p);
    if (se == null || !se.onRq) {
      return true;
    }
    long now = rq.clockPelt();
    FairRq q = Objects.requireNonNull(se.cfsRq);
    boolean migrating = (flags & SchedFlags.DEQUEUE_MIGRATING) != 0;
    if (se.delayed) {
      FairPelt.update(q, se, now);
      // DEQUEUE_DELAYED comes from a wakeup (feature.TTWU_DEQUEUE); a pick finishes its own
      boolean woken = (flags & SchedFlags.DEQUEUE_DELAYED) != 0;
      hierarchy.finishDelayed(se, now, woken && feat.ttwuDequeueKeepLag());
      if (migrating) {
        FairPelt.detach(q, se);
      }
      return true;
    }
    boolean sleep = (flags & SchedFlags.DEQUEUE_SLEEP) != 0;
    FairPelt.utilEstDequeue(rqs[q.cpu], se);
    if (sleep) {
      FairPelt.utilEstUpdate(se, machine.cpu(q.cpu).capacityOrig(), peltHook);
    }
    FairPelt.update(q, se, now);
    if (feat.delayDequeue() && sleep && !q.eligible(se.vruntime)) {
      se.delayed = true; // negative lag: keep competing until picked, then finish the dequeue
      hierarchy.addDelayed(se, 1);
      return false;
    }
    q.updateEntityLag(se, feat.tickNs());
    hierarchy.removeTask(se, now, 0);
    if (migrating) {
      FairPelt.detach(q, se);
    }
    return true;
  }

  // ---------------- groups ----------------

  // ---------------- pick, put, set ----------------

  @Override
  public @Nullable TaskView pickNext(RqView rq) {
    FairRq root = rqs[rq.cpu()];
    pick:
    while (true) {
      FairRq q = root;
      FairEntity se;
      while (true) {
        if (bandwidthUsed
            && q.runtimeEnabled
            && !q.throttled
            && q.runtimeRemaining <= 0
            && q.curr != null) {
          hierarchy.throttle(q, rq.clockPelt()); // check_cfs_rq_runtime() on the way down
          if (q.throttled) {
            continue pick;
          }
        }
        se = q.pickEevdf(protectOnPick());
        if (se != null && se.delayed && se.myQ != null) {
          // pick_next_entity(): a delayed group entity picked completes its dequeue; pick again.
          hierarchy.finishDelayedGroup(se, rq.clockPelt());
          continue pick;
        }
        if (se == null || se.myQ == null) {
          break;
        }
        q = se.myQ;
      }
      if (se == null) {
        return null;
      }
      TaskView task = Objects.requireNonNull(se.task); // a leaf entity is a task
      if (!se.delayed) {
        TaskView prev = rq.curr();
        boolean fairSwitch = prev != task && entityOf(prev) != null;
        switchFrom[rq.cpu()] = fairSwitch ? prev : null;
        switchTo[rq.cpu()] = fairSwitch ? task : null;
        return task;
      }
      // pick_next_entity(): picking a delayed entity completes its dequeue; then pick again.
      services.completeDelayedDequeue(task);
      if (se.onRq && se.delayed) {
        FairPelt.update(Objects.requireNonNull(se.cfsRq), se, rq.clockPelt());
        hierarchy.finishDelayed(se, rq.clockPelt(), false);
      }
    }
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {
    FairEntity se = entityOf(prev);
    if (se == null || se.cfsRq == null || se.cfsRq.curr != se) {
      return;
    }
    long now = rq.clockPelt();
    // pick_next_task_fair() puts prev's entities only up to where prev's and next's hierarchies
    // meet: the common ancestors stay current, their slice protection unchanged.
    TaskView to = switchFrom[rq.cpu()] == prev ? switchTo[rq.cpu()] : null;
    FairEntity common = to == null ? null : commonAncestor(se, entityOf(to));
    switchFrom[rq.cpu()] = null;
    for (FairEntity e = se; e != null && e != common; e = e.parent) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      if (q.curr != e) {
        continue;
      }
      if (e.onRq && !e.inTree) {
        q.add(e);
      }
      if (e.onRq) {
        FairPelt.update(q, e, now);
      }
      q.curr = null;
      if (bandwidthUsed && q.runtimeEnabled && !q.throttled && q.runtimeRemaining <= 0) {
        hierarchy.throttle(q, now); // check_cfs_rq_runtime()
      }
    }
  }

  @Override
  public void setNext(RqView rq, TaskView next) {
    FairEntity se = entityOf(next);
    if (se == null) {
      return;
    }
    long now = rq.clockPelt();
    for (FairEntity e = se; e != null; e = e.parent) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      if (q.curr == e) {
        break; // a common ancestor with prev, left current by putPrev()
      }
      if (e.inTree) {
        q.remove(e); // V is unchanged: curr is added back in by avg_vruntime()
      }
      if (e.onRq) {
        FairPelt.update(q, e, now);
      }
      q.curr = e;
      setProtection(q, e);
    }
  }

  /** The lowest entity on both {@code a}'s and {@code b}'s paths to the root, or null. */
  private static @Nullable FairEntity commonAncestor(FairEntity a, @Nullable FairEntity b) {
    for (FairEntity x = a.parent; x != null; x = x.parent) {
      for (FairEntity y = b == null ? null : b.parent; y != null; y = y.parent) {
        if (x == y) {
          return x;
        }
      }
    }
    return null;
  }

  /**
   * {@code set_protect_slice()}: protected until the deadline, or with RUN_TO_PARITY until the
   * smallest queued slice is used up. The point is kept even without RUN_TO_PARITY (as v6.12's
   * {@code vlag = deadline} hack is) because PREEMPT_SHORT's check reads it; only pick honours it.
   */
  private void setProtection(FairRq q, FairEntity se) {
    if (!feat.runToParity() && !feat.protectQuantum()) {
      se.vprot = se.deadline;
      return;
    }
    // v6.17+ without RUN_TO_PARITY: a minimum quantum of the normalized base slice.
    long quantum = feat.runToParity() ? q.minSlice() : feat.normalizedSliceNs();
    long slice = Math.min(quantum, se.slice);
    long vprot = se.deadline;
    if (slice != se.slice) {
      long limit = se.vruntime + FairWeights.calcDeltaFair(slice, se.weight);
      vprot = limit - vprot < 0 ? limit : vprot;
    }
    se.vprot = vprot;
  }

  /**
   * {@code pick_eevdf()} keeps a protected curr with RUN_TO_PARITY, and from v6.17 always (the
   * protection is then at least a quantum).
   */
  private boolean protectOnPick() {
    return feat.runToParity() || feat.protectQuantum();
  }

  // ---------------- update_curr, tick, preemption ----------------

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    FairEntity se = entityOf(curr);
    if (se == null || se.cfsRq == null || se.cfsRq.curr != se || deltaExecNs <= 0) {
      return;
    }
    boolean resched = false;
    for (FairEntity e = se; e != null; e = e.parent) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      if (q.curr != e) {
        break;
      }
      e.vruntime += FairWeights.calcDeltaFair(deltaExecNs, e.weight);
      boolean expired = updateDeadline(e);
      q.rebase();
      if (bandwidthUsed && q.runtimeEnabled) {
        q.bandwidth().account(q, deltaExecNs);
      }
      if (q.nrQueued > 1 && (expired || protectionOver(q, e))) {
        resched = true;
      }
    }
    if (resched) {
      services.resched(rq.cpu(), ReschedReason.SLICE_EXPIRY_TICK);
    }
  }

  /**
   * {@code yield_task_fair()} (run time already charged): with another task on the runqueue the
   * yielder gives up the rest of its request. Before v6.17 its deadline moves one slice on, which
   * also ends RUN_TO_PARITY's protection (v6.12 marks it by {@code vlag == deadline}); from v6.17
   * ({@code feature.YIELD_FORFEIT}, 79104becf42b) only an eligible yielder acts: its vruntime moves
   * to its deadline and the deadline one slice past it.
   */
  @Override
  public void yieldTask(RqView rq, TaskView curr) {
    FairEntity se = entityOf(curr);
    if (se == null || se.cfsRq == null || rq.nrRunning() == 1) {
      return;
    }
    FairRq q = se.cfsRq;
    long vslice = FairWeights.calcDeltaFair(se.slice, se.weight);
    if (!feat.yieldForfeit()) {
      se.deadline += vslice;
      se.cancelProtection();
    } else if (q.eligible(se.vruntime)) {
      se.vruntime = se.deadline;
      se.deadline += vslice;
      q.rebase();
    }
  }

  /** {@code update_deadline()}: a new request once the old deadline has been reached. */
  private boolean updateDeadline(FairEntity se) {
    if (se.vruntime - se.deadline < 0) {
      return false;
    }
    se.slice = se.myQ == null ? sliceOf(Objects.requireNonNull(se.task)) : feat.baseSliceNs();
    se.deadline = se.vruntime + FairWeights.calcDeltaFair(se.slice, se.weight);
    return true;
  }

  /**
   * v6.17+: curr's protection is over ({@code !protect_slice()}, 0b9ca2dcabc3 "sched/fair: Always
   * trigger resched at the end of a protected period"); before, {@code did_preempt_short()}: with
   * PREEMPT_SHORT, over and curr no longer eligible.
   */
  private boolean protectionOver(FairRq q, FairEntity se) {
    if (feat.protectQuantum()) {
      return !se.isProtected();
    }
    return feat.preemptShort() && !se.isProtected() && !q.eligible(se.vruntime);
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    // entity_tick() per level: the slice-expiry check ran in updateCurr(), which the engine
    // calls first; PELT and the group entities' shares are updated here.
    FairEntity se = entityOf(curr);
    if (se == null || se.cfsRq == null || se.cfsRq.curr != se) {
      return;
    }
    long now = rq.clockPelt();
    for (FairEntity e = se; e != null; e = e.parent) {
      FairPelt.update(Objects.requireNonNull(e.cfsRq), e, now);
      if (e.myQ != null) {
        hierarchy.reweightGroup(e, now);
      }
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    TaskView currTask = rq.curr();
    FairEntity se = entityOf(currTask);
    FairEntity pse = entityOf(p);
    if (se == null
        || pse == null
        || se == pse
        || se.cfsRq == null
        || se.cfsRq.curr != se
        || !pse.onRq) {
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
    // find_matching_se(): compare the two where their hierarchies meet.
    int sd = se.depth();
    int pd = pse.depth();
    while (sd > pd) {
      se = Objects.requireNonNull(se.parent);
      sd--;
    }
    while (pd > sd) {
      pse = Objects.requireNonNull(pse.parent);
      pd--;
    }
    while (se.cfsRq != pse.cfsRq) {
      se = Objects.requireNonNull(se.parent);
      pse = Objects.requireNonNull(pse.parent);
    }
    FairRq q = Objects.requireNonNull(se.cfsRq);
    if (q.curr != se || !pse.onRq) {
      return;
    }
    boolean shorter = feat.preemptShort() && pse.slice < se.slice;
    if (feat.forkNoPreempt()
        && !shorter
        && ((wakeFlags & SchedFlags.WF_FORK) != 0 || pse.delayed)) {
      return; // the NEXT_BUDDY rework: unless shorter-sliced, a new or delayed wakee never preempts
    }
    // update_curr() was done by the engine before this call.
    if (feat.protectQuantum()) {
      preemptShortV617(rq, q, pse, se);
      return;
    }
    if (doPreemptShort(q, pse, se)) {
      se.cancelProtection();
    }
    if (q.pickEevdf(feat.runToParity()) == pse) {
      services.resched(rq.cpu(), ReschedReason.WAKEUP_SAME_CLASS);
    }
  }

  /**
   * v6.17+ (9de74a9850b9 "sched/fair: Remove spurious shorter slice preemption", 3a0baa8e6c57
   * "sched/fair: Fix entity's lag with run to parity"): a wakee with a shorter slice is picked
   * without curr's protection, and breaks it only if it is the pick; otherwise, with RUN_TO_PARITY,
   * curr's protection is cut to the queue's min slice ({@code update_protect_slice()}).
   */
  private void preemptShortV617(RqView rq, FairRq q, FairEntity pse, FairEntity se) {
    boolean preemptShort = feat.preemptShort() && pse.slice < se.slice;
    if (q.pickEevdf(!preemptShort) == pse) {
      if (preemptShort) {
        se.cancelProtection();
      }
      services.resched(rq.cpu(), ReschedReason.WAKEUP_SAME_CLASS);
      return;
    }
    if (feat.runToParity() && preemptShort) {
      long limit = se.vruntime + FairWeights.calcDeltaFair(q.minSlice(), se.weight);
      se.vprot = limit - se.vprot < 0 ? limit : se.vprot;
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
    return rqs[rq.cpu()].hNrQueued;
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

  /** v4.17's {@code weighted_cpuload()}, read by the v4.17 balancer ({@code LB_AVG_LOAD}). */
  @Override
  public long runnableLoad(int cpu) {
    return FairProbe.runnableLoadAvg(rqs[cpu]);
  }

  @Override
  public long taskHLoad(TaskView p) {
    FairEntity se = entityOf(p);
    if (se == null) {
      return 0;
    }
    // task_h_load(): p's load scaled by its runqueue's share of the root's (update_cfs_rq_h_load).
    FairRq q = se.attachedTo != null ? se.attachedTo : rqs[p.cpu()];
    return se.avg.loadAvg * FairPelt.hLoad(q) / (q.avg.loadAvg + 1);
  }

  @Override
  public boolean updateBlocked(int cpu) {
    return FairPelt.updateBlocked(groups, rqs[cpu], machine.cpu(cpu).rq().clockPelt());
  }

  @Override
  public boolean throttled(TaskView p) {
    FairEntity se = entityOf(p);
    for (FairEntity e = se; e != null && bandwidthUsed; e = e.parent) {
      if (e.cfsRq != null && e.cfsRq.throttled) {
        return true;
      }
    }
    return false;
  }
}
