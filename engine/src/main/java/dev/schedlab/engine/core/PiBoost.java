package dev.schedlab.engine.core;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedulingClass;
import java.util.IdentityHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Priority inheritance of rtmutexes under PREEMPT_RT: an owner runs at the priority of its
 * highest-priority waiter when that is above its own, and a blocked owner passes it on to the owner
 * of the lock it waits for (the chain walk).
 *
 * <p>Models: {@code rt_mutex_adjust_prio()} and {@code rt_mutex_setprio()}: the owner's effective
 * policy and priority become the top waiter's ({@link Task#boost}); a change of class dequeues the
 * task from its class and enqueues it in the new one (its old class data parked until it returns),
 * a running task is put and set again, and the change is checked for preemption as {@code
 * check_class_changed()} does. {@code rt_mutex_adjust_prio_chain()}: while the owner itself sleeps
 * on an rtmutex, its place in that wait list is updated and the walk continues with that lock's
 * owner.
 *
 * <p>Does not model: Deadline-to-deadline inheritance of an earlier deadline (the donor's
 * parameters are used only when the owner changes class), the chain walk's own cost and its depth
 * limit ({@code max_lock_depth}).
 *
 * <p>Kernel reference: kernel/locking/rtmutex.c, kernel/sched/core.c {@code rt_mutex_setprio()}.
 */
final class PiBoost {
  private final Kernel k;

  PiBoost(Kernel k) {
    this.k = k;
  }

  /** Recomputes {@code owner}'s inherited priority, and along the chain of owners after it. */
  void adjust(@Nullable Task owner) {
    Task t = owner;
    for (int depth = 0; t != null && depth < 1024; depth++) {
      Task donor = topWaiter(t);
      if (donor != null && donor.prio() >= t.normalPrio()) {
        donor = null;
      }
      if (donor == t.boost) {
        return;
      }
      setBoost(t, donor);
      KLock w = t.locks.waiting;
      if (w == null) {
        return;
      }
      if (w.sleepers.remove(t)) {
        reinsert(w, t);
      }
      t = w.owner;
    }
  }

  /** The highest-priority task waiting for any sleeping lock {@code t} holds. */
  private @Nullable Task topWaiter(Task t) {
    Task best = null;
    TaskLocks tl = t.locks;
    for (int i = 0; i < tl.nrHeld; i++) {
      KLock l = tl.held[i];
      if (l.owner != t) {
        continue;
      }
      for (Task w : l.sleepers) {
        best = better(best, w);
      }
      for (Task w : l.spinners) {
        best = better(best, w);
      }
    }
    return best;
  }

  private static Task better(@Nullable Task a, Task b) {
    return a == null || b.prio() < a.prio() ? b : a;
  }

  private static void reinsert(KLock l, Task t) {
    java.util.List<Task> all = new java.util.ArrayList<>(l.sleepers);
    l.sleepers.clear();
    boolean placed = false;
    for (Task w : all) {
      if (!placed && t.prio() < w.prio()) {
        l.sleepers.add(t);
        placed = true;
      }
      l.sleepers.add(w);
    }
    if (!placed) {
      l.sleepers.add(t);
    }
  }

  /** {@code rt_mutex_setprio(t, donor)}. */
  private void setBoost(Task t, @Nullable Task donor) {
    Cpu rq = k.cpus[t.cpu];
    boolean running = rq.curr == t && t.onCpu;
    boolean queued = t.onRq;
    SchedulingClass from = t.sclass;
    int oldPrio = t.prio();
    if (queued) {
      k.sched.account(rq);
      if (running) {
        from.putPrev(rq, t);
      }
      from.dequeue(rq, t, 0);
    }
    t.boost = donor;
    SchedulingClass to = KernelBuilder.classFor(k.ext.classes(), t.policy());
    if (to != from) {
      if (t.parkedClassData == null) {
        t.parkedClassData = new IdentityHashMap<>();
      }
      t.parkedClassData.put(from, t.classData);
      t.classData = t.parkedClassData.remove(to);
      t.sclass = to;
      t.classRank = to.rank();
      RunQueueList.reclassed(rq, t);
    }
    if (queued) {
      to.enqueue(rq, t, 0);
      if (running) {
        to.setNext(rq, t);
      }
    }
    // check_class_changed() / prio_changed: a queued task that went up may preempt curr; a
    // running one that went down lets pick_next_task() choose again.
    if (queued && !running && t.prio() < oldPrio) {
      k.sched.wakeupPreempt(rq, t, 0);
    } else if (running && t.prio() > oldPrio) {
      k.sched.resched(rq, ReschedReason.FORCE);
    }
  }
}
