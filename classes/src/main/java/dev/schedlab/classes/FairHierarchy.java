package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Queueing in the fair class's runqueue hierarchy: entities placed on their runqueue and group
 * entities queued and dequeued up the hierarchy as their runqueues fill and empty.
 *
 * <p>Models: {@code enqueue_task_fair()}'s and {@code dequeue_entities()}'s walks (the {@code
 * h_nr_queued}/{@code h_nr_delayed} counts, stopping under a throttled runqueue, whose tasks leave
 * the CPU's {@code nr_running}); {@code place_entity()} with PLACE_LAG and PLACE_DEADLINE_INITIAL;
 * {@code requeue_delayed_entity()} and {@code finish_delayed_dequeue_entity()}; DELAY_DEQUEUE of
 * group entities: a group entity whose runqueue empties while it is not eligible stays queued,
 * empty, until it is picked (then its dequeue completes and the walk goes on above it) or a task
 * joins its group on that CPU (then it is requeued in place, as a task is); {@code
 * update_cfs_group()}, which keeps an empty group's weight; {@code throttle_cfs_rq()} and {@code
 * unthrottle_cfs_rq()} (which completes a delayed entity's dequeue before enqueueing it again).
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code dequeue_entity}, {@code
 * dequeue_entities}, {@code enqueue_task_fair}, {@code requeue_delayed_entity}, {@code
 * pick_next_entity}, {@code update_cfs_group}); commit 152e11f6df29 ("sched/fair: Implement delayed
 * dequeue"), whose walk dequeues every level above a task with DEQUEUE_SLEEP, and 781773e3b680
 * ("sched/fair: Implement ENQUEUE_DELAYED").
 */
final class FairHierarchy {
  private final FairClass fair;
  private final MachineView machine;
  private final SchedServices services;
  private final FairFeatures feat;

  FairHierarchy(FairClass fair, MachineView machine, SchedServices services, FairFeatures feat) {
    this.fair = fair;
    this.machine = machine;
    this.services = services;
    this.feat = feat;
  }

  /**
   * {@code enqueue_task_fair()}'s walk: queues {@code se} and each group entity above that is not
   * queued yet, stopping under a throttled runqueue; adds {@code tasks} (of which {@code delayed}
   * delayed) to the hierarchical counts. A delayed group entity on the way is requeued in place and
   * ends the queueing ({@code requeue_delayed_entity()}), or with {@code requeue} false (the
   * unthrottle walk) has its dequeue completed and is enqueued again. Returns whether the root was
   * reached (runnable).
   */
  boolean enqueueUp(FairEntity se, int flags, long now, int tasks, int delayed, boolean requeue) {
    FairEntity e = se;
    boolean queueing = true;
    while (e != null) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      if (queueing && e.delayed && requeue) {
        FairPelt.update(q, e, now);
        requeueDelayed(q, e);
        queueing = false;
        updateGroupEntity(e, now);
      } else if (queueing && (!e.onRq || e.delayed)) {
        if (e.delayed) {
          finishDelayedEntity(q, e, now);
        }
        enqueueEntity(q, e, flags, now);
        flags = SchedFlags.ENQUEUE_WAKEUP;
      } else {
        queueing = false;
        updateGroupEntity(e, now);
      }
      q.hNrQueued += tasks;
      q.hNrDelayed += delayed;
      if (q.throttled) {
        return false;
      }
      e = e.parent;
    }
    return true;
  }

  /** {@code enqueue_entity()} on one level. */
  private void enqueueEntity(FairRq q, FairEntity se, int flags, long now) {
    if (se.myQ != null) {
      se.slice = feat.baseSliceNs();
      reweightGroup(se, now);
    }
    place(q, se, flags);
    FairPelt.update(q, se, now);
    if (se.attachedTo == null) {
      FairPelt.attach(q, se);
    }
    se.onRq = true;
    q.nrQueued++;
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
    if (feat.placeDeadlineInitial()
        && (flags & (SchedFlags.ENQUEUE_INITIAL | SchedFlags.ENQUEUE_WAKEUP))
            == SchedFlags.ENQUEUE_INITIAL) {
      // new tasks start with half a slice so they do not preempt at once; a task that existed
      // before the run (INITIAL | WAKEUP) is no fork
      vslice /= 2;
    }
    se.deadline = se.vruntime + vslice;
  }

  /** {@code requeue_delayed_entity()}: a delayed task woke up; keep it where it is. */
  void requeueDelayed(FairRq q, FairEntity se) {
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
    q.rebase();
  }

  /** Adds {@code delta} delayed tasks along {@code se}'s path (up to a throttled runqueue). */
  void addDelayed(FairEntity se, int delta) {
    for (FairEntity e = se; e != null; e = e.parent) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      q.hNrDelayed += delta;
      if (q.throttled) {
        return;
      }
    }
  }

  /**
   * {@code finish_delayed_dequeue_entity()} then the dequeue; {@code keepLag}: the lag earned while
   * delayed stays, as the project's guest keeps it when a wakeup completes the dequeue.
   */
  void finishDelayed(FairEntity se, long now, boolean keepLag) {
    Objects.requireNonNull(se.cfsRq).updateEntityLag(se, feat.tickNs());
    if (feat.delayZero() && se.vlag > 0 && !keepLag) {
      se.vlag = 0; // finish_delayed_dequeue_entity(): positive lag earned while delayed is lost
    }
    se.delayed = false;
    removeTask(se, now, 1);
  }

  /**
   * {@code pick_next_entity()} picked a delayed group entity: {@code dequeue_entities()} with
   * DEQUEUE_DELAYED takes it off its runqueue and goes on up while runqueues empty (an entity above
   * may be delayed in turn). Its group holds no tasks: no count changes.
   */
  void finishDelayedGroup(FairEntity g, long now) {
    finishDelayedEntity(Objects.requireNonNull(g.cfsRq), g, now);
    dequeueUp(g, now, 0, 0);
  }

  /** {@code dequeue_entity()} with DEQUEUE_DELAYED of a delayed group entity, on its level. */
  private void finishDelayedEntity(FairRq q, FairEntity g, long now) {
    FairPelt.update(q, g, now);
    q.updateEntityLag(g, feat.tickNs());
    if (feat.delayZero() && g.vlag > 0) {
      g.vlag = 0;
    }
    g.delayed = false;
    removeEntity(q, g);
  }

  /**
   * {@code dequeue_entities()}: takes task {@code se} off its runqueue and each group entity above
   * whose runqueue became empty; {@code delayed} says it was counted as delayed.
   */
  void removeTask(FairEntity se, long now, int delayed) {
    FairRq leaf = Objects.requireNonNull(se.cfsRq);
    if (Objects.requireNonNull(se.task).policy() == Policy.IDLE) {
      fair.nrIdlePolicy[leaf.cpu]--;
      fair.nrIdlePolicyTotal--;
    }
    removeEntity(leaf, se);
    if (!dequeueUp(se, now, 1, delayed)) {
      services.changeNrRunning(leaf.cpu, 1); // it was not counted: the engine now removes it
    }
  }

  /**
   * {@code dequeue_entities()}'s walk above {@code se}, just taken off its runqueue: subtracts
   * {@code tasks} ({@code delayed} of them delayed) along the path and dequeues each group entity
   * whose runqueue became empty, with DEQUEUE_SLEEP as the kernel passes it above the first level:
   * one that is not eligible is delayed instead, stays queued and ends the dequeueing. Returns
   * false when a throttled runqueue ended the walk.
   */
  private boolean dequeueUp(FairEntity se, long now, int tasks, int delayed) {
    boolean removing = true;
    for (FairEntity e = se; e != null; e = e.parent) {
      FairRq q = Objects.requireNonNull(e.cfsRq);
      if (e != se) {
        FairRq myQ = Objects.requireNonNull(e.myQ); // a group entity above the task
        if (removing && e.onRq && myQ.nrQueued == 0) {
          FairPelt.update(q, e, now);
          if (feat.delayDequeue() && !q.eligible(e.vruntime)) {
            e.delayed = true; // burns off its negative lag in the competition until picked
            removing = false;
          } else {
            myQ.updateEntityLag(e, feat.tickNs());
            q.updateEntityLag(e, feat.tickNs());
            removeEntity(q, e);
          }
        } else {
          removing = false;
          updateGroupEntity(e, now);
        }
      }
      q.hNrQueued -= tasks;
      q.hNrDelayed -= delayed;
      if (q.nrQueued == 0 && q.runtimeEnabled && q.tg != null && q.tg.bandwidth != null) {
        q.tg.bandwidth.returnRuntime(q);
      }
      if (q.throttled) {
        return false;
      }
    }
    return true;
  }

  private void removeEntity(FairRq q, FairEntity se) {
    if (se.inTree) {
      q.remove(se);
    }
    se.onRq = false;
    q.nrQueued--;
    q.rebase();
  }

  /** {@code update_load_avg()} + {@code update_cfs_group()} of a queued group entity. */
  private void updateGroupEntity(FairEntity e, long now) {
    if (e.myQ == null) {
      return;
    }
    FairPelt.update(Objects.requireNonNull(e.cfsRq), e, now);
    reweightGroup(e, now);
  }

  /** {@code update_cfs_group()}: the group entity's weight from the group's shares. */
  void reweightGroup(FairEntity e, long now) {
    FairRq gq = Objects.requireNonNull(e.myQ);
    if (gq.nrQueued == 0) {
      return; // an empty group keeps its weight (for DELAY_DEQUEUE)
    }
    FairGroup tg = Objects.requireNonNull(gq.tg);
    FairPelt.updateRq(gq, now);
    tg.updateLoad(gq);
    long shares = tg.calcShares(gq);
    if (shares != e.weight) {
      Objects.requireNonNull(e.cfsRq).reweight(e, (int) shares);
    }
  }

  /** {@code throttle_cfs_rq()}: {@code q} ran out of quota; take its tasks off the CPU. */
  void throttle(FairRq q, long now) {
    if (!q.bandwidth().mustThrottle(q)) {
      return;
    }
    services.counter("fair.throttles").increment();
    int tasks = q.hNrQueued;
    int delayed = q.hNrDelayed;
    q.throttled = true;
    boolean removing = true;
    for (FairEntity e = q.owner; e != null; e = e.parent) {
      FairRq pq = Objects.requireNonNull(e.cfsRq);
      if (removing && e.onRq) {
        FairPelt.update(pq, e, now);
        pq.updateEntityLag(e, feat.tickNs());
        removeEntity(pq, e);
        removing = pq.nrQueued == 0;
      } else {
        removing = false;
      }
      pq.hNrQueued -= tasks;
      pq.hNrDelayed -= delayed;
      if (pq.throttled) {
        return; // an ancestor was throttled already: these tasks were not counted
      }
    }
    services.changeNrRunning(q.cpu, -tasks);
  }

  /** {@code unthrottle_cfs_rq()}: the period timer refilled {@code q}; put its tasks back. */
  void unthrottle(FairRq q) {
    services.counter("fair.unthrottles").increment();
    q.throttled = false;
    int tasks = q.hNrQueued;
    if (q.nrQueued == 0) {
      return;
    }
    long now = machine.cpu(q.cpu).rq().clockPelt();
    if (enqueueUp(
        Objects.requireNonNull(q.owner),
        SchedFlags.ENQUEUE_WAKEUP,
        now,
        tasks,
        q.hNrDelayed,
        false)) {
      services.changeNrRunning(q.cpu, tasks);
      TaskView curr = machine.cpu(q.cpu).rq().curr();
      if (curr == null || curr.isIdleTask()) {
        services.resched(q.cpu, ReschedReason.IDLE_CURR);
      } else if (curr.policy() != Policy.IDLE && curr.classData() instanceof FairEntity) {
        TaskView first = firstTask(q);
        if (first != null) { // as wakeupPreempt() ignores a task it does not schedule
          fair.wakeupPreempt(machine.cpu(q.cpu).rq(), first, 0);
        }
      }
    }
  }

  private static @Nullable TaskView firstTask(FairRq q) {
    FairRq r = q;
    while (true) {
      FairEntity e = r.curr != null ? r.curr : r.tree.first();
      if (e == null) {
        return null;
      }
      if (e.myQ == null) {
        return e.task;
      }
      r = e.myQ;
    }
  }
}
