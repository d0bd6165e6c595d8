package dev.schedlab.engine.core;

import dev.schedlab.api.IpiPath;
import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.params.Param;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The core scheduler paths; the pre-idle spin window of hook H2 is {@link IdleSpinWindow}'s.
 *
 * <p>Models: {@code __schedule()} with its modes (SM_IDLE, SM_NONE, SM_PREEMPT) and costs, {@code
 * pick_next_task()} over the classes, the resched protocol ({@code resched_curr()}, the RESCHEDULE
 * IPI unless the target polls), {@code sched_tick()}, {@code try_to_wake_up()} with {@code
 * ttwu_runnable()}, the wake list ({@code TTWU_QUEUE}, {@code TTWU_QUEUE_IDLE}) or the waker's own
 * activation on the target's runqueue, {@code wakeup_preempt()}, and new tasks placed by the class
 * with WF_FORK.
 *
 * <p>Does not model: core scheduling, the cost of fork itself, and a wakeup's costs on the wakee's
 * CPU (the waker's CPU pays them).
 *
 * <p>Kernel reference: {@code kernel/sched/core.c} ({@code __schedule}, {@code pick_next_task},
 * {@code resched_curr}, {@code sched_tick}, {@code try_to_wake_up}, {@code ttwu_runnable}, {@code
 * ttwu_queue_wakelist}, {@code wakeup_preempt}, {@code wake_up_new_task}).
 */
final class Scheduler {
  private final Kernel k;
  private final MetricCounter switches;
  private final MetricCounter wakeups;
  private final MetricCounter wakeRunnable;
  private final MetricCounter wakeRemoteQueued;

  /**
   * perf's cpu-migrations: a task set to another CPU (set_task_cpu), not a new task's placement.
   */
  private final MetricCounter migrations;

  private final MetricCounter busyTicks;
  private final MetricCounter schedIdleCalls;
  private final MetricCounter pickOverrides;
  private final MetricCounter newidle;

  /** The pre-idle spin window of hook H2. */
  final IdleSpinWindow spinWindow;

  /** The H5 tick stage: a plugin's, else mainline's task_mm_cid_work scheduling. */
  private final dev.schedlab.api.hook.TickHook tickStage;

  /** Cache refill of a task switched in after others ran on its CPU. */
  private final SwitchRefill refill;

  Scheduler(Kernel k) {
    this.k = k;
    switches = k.metrics.counter("sched.context_switches");
    wakeups = k.metrics.counter("sched.wakeups");
    wakeRunnable = k.metrics.counter("sched.wakeups_runnable");
    wakeRemoteQueued = k.metrics.counter("sched.wakeups_wakelist");
    migrations = k.metrics.counter("sched.migrations");
    busyTicks = k.metrics.counter("tick.busy");
    schedIdleCalls = k.metrics.counter("sched.schedule_idle_calls");
    pickOverrides = k.metrics.counter("sched.pick_overrides");
    newidle = k.metrics.counter("sched.newidle_balance_calls");
    spinWindow = new IdleSpinWindow(k, this);
    refill =
        new SwitchRefill(
            k.cpus.length, k.costs.p(Param.SWITCH_REFILL), k.costs.p(Param.SWITCH_REFILL_KEEP_PCT));
    tickStage = k.ext.tick() != null ? k.ext.tick() : (c, t, s) -> k.mmCid.tick((Cpu) c, (Task) t);
  }

  // ---------------- accounting ----------------

  /**
   * {@code update_rq_clock()} then {@code update_curr()}: charges the running task's time since it
   * was last accounted.
   */
  void account(Cpu cpu) {
    cpu.clock = k.now;
    charge(cpu);
  }

  /** {@code update_curr()} at the rq clock as it stands. */
  private static void charge(Cpu cpu) {
    Task t = cpu.curr;
    if (t.idleTask) {
      return;
    }
    long delta = cpu.clock - t.execStart;
    if (delta > 0) {
      t.sumExec += delta;
      t.execStart = cpu.clock;
      t.sclass.updateCurr(cpu, t, delta);
    }
  }

  // ---------------- __schedule ----------------

  /**
   * {@code __schedule(mode)}: decides {@code next} now and spends the path's cost in a window with
   * IRQs off; interrupts arriving meanwhile are latched until {@link #finish}.
   */
  void schedule(Cpu cpu, SchedMode mode, long extraCost) {
    Task prev = cpu.curr;
    k.rcu.noteContextSwitch(cpu);
    if (cpu.clockSkip) {
      // RQCF_ACT_SKIP: the clock stays where the wakeup that asked for this switch read it, so
      // prev is charged up to that wakeup and next from it (the idle exit path is next's)
      cpu.clockSkip = false;
      charge(cpu);
    } else {
      account(cpu);
    }
    RqPelt.updateOthers(cpu);
    // update_rq_clock() writes the rq line a cross-CPU call may have read rq->idle from
    long cost = extraCost + k.costs.p(Param.SCHED_BASE) + cpu.rqIdleLine.write(cpu, k.irqs);
    if (mode == SchedMode.IDLE) {
      schedIdleCalls.value++;
    }
    if (mode != SchedMode.PREEMPT && prev.state != TaskState.RUNNING && !prev.idleTask) {
      if (cpu.phase != Cpu.P_SPIN) {
        long spin = k.ext.beforeDeactivate().spinLimitNs(cpu, prev, cpu);
        if (spin > 0) {
          spinWindow.startSpin(cpu, prev, spin);
          return;
        }
      }
      deactivate(cpu, prev);
    }
    dev.schedlab.api.view.TaskView override =
        k.ext.pickOverride().pickOverride(cpu, mode, prev, cpu);
    Task next = override == null ? null : k.checks.picked(cpu, null, override);
    Task startCurr = cpu.startCurr;
    if (startCurr != null) {
      cpu.startCurr = null;
    }
    if (next != null) {
      cpu.balanceCallback = false; // H1's fast path picks no class: no callback queued
      pickOverrides.value++;
      cpu.overrideAt = k.now;
    } else if (startCurr != null && startCurr.onRq && startCurr.cpu == cpu.id) {
      // the task current here when the run began (start_running): what the kernel ran, not a
      // pick from the classes' fresh state
      next = startCurr;
      cost += k.costs.p(Param.PICK_FAIR);
      cpu.balanceCallback = true;
    } else {
      k.pathCost = 0;
      next = pickNextTask(cpu, prev);
      cpu.balanceCallback = !next.idleTask; // set_next_task()'s (RT/DL push), run in finish()
      cost += k.pathCost;
    }
    if (prev.idleTask) {
      cost += cpu.idleFlagsLine.write(cpu, k.irqs); // clear_tsk_need_resched()
    }
    prev.needResched = false;
    prev.needReschedLazy = false;
    if (cpu.reschedWriteFor == prev) {
      // a remote waker's flag not landed yet: this pick already sees its wakee
      cpu.reschedWriteFor = null;
      k.queue.cancel(cpu.reschedWrite);
    }
    if (next != prev) {
      switches.value++;
      cpu.switchedAt = k.now;
      prev.runnableAt = k.now;
      boolean light = prev.idleTask || next.idleTask || (prev.mmId >= 0 && prev.mmId == next.mmId);
      cost += light ? k.costs.p(Param.CTX_SWITCH_LIGHT) : k.costs.p(Param.CTX_SWITCH);
      cost += refill.switchIn(cpu.id, next);
      prev.sclass.putPrev(cpu, prev);
      next.sclass.setNext(cpu, next);
      if (k.trace.enabled()) {
        k.trace.schedSwitch(
            k.now,
            cpu.id,
            prev.comm,
            prev.tracePid(),
            prev.prio(),
            stateChar(prev),
            next.comm,
            next.tracePid(),
            next.prio());
      }
    }
    cpu.schedPrev = prev;
    if (prev.idleTask != next.idleTask) {
      k.llcShared.llcIdle[cpu.llcId] += next.idleTask ? 1 : -1;
      cpu.syncClockPelt();
    }
    cpu.curr = next;
    next.execStart = cpu.clock; // set_next_entity(): the switch's own cost is next's
    cpu.idleChanged();
    if (next.idleTask && prev != next) {
      k.llcShared.updateIdleCore(cpu);
    }
    k.balancer.updateMisfit(cpu, next.idleTask ? null : next);
    next.cpu = cpu.id;
    next.onCpu = true;
    next.polling = false;
    k.setPhase(cpu, Cpu.P_SCHED, cost);
    cpu.opIrqsOff = true;
  }

  private static char stateChar(Task t) {
    return switch (t.state) {
      case RUNNING -> 'R';
      case UNINTERRUPTIBLE -> 'D';
      case DEAD -> 'X';
      default -> 'S';
    };
  }

  private void deactivate(Cpu cpu, Task prev) {
    if (prev.sclass.dequeue(cpu, prev, SchedFlags.DEQUEUE_SLEEP)) {
      prev.onRq = false;
      removeQueued(cpu, prev);
    } else {
      prev.delayed = true;
      fairRunnable(cpu, prev, -1);
    }
    k.checks.counts(cpu, prev, "dequeue");
  }

  /** The task left the runqueue (dequeued, migrated, or a delayed dequeue completed). */
  void removeQueued(Cpu cpu, Task t) {
    if (!t.delayed) {
      fairRunnable(cpu, t, -1);
    }
    int before = cpu.nrRunning;
    cpu.nrRunning--;
    cpu.idleChanged();
    RunQueueList.remove(cpu, t);
    k.balancer.nrRunningChanged(cpu, before);
  }

  /** {@code cfs.h_nr_runnable}: fair tasks queued and not delayed. */
  private static void fairRunnable(Cpu cpu, Task t, int delta) {
    if (t.classRank == SchedulingClass.RANK_FAIR) {
      cpu.fairNr += delta;
    }
  }

  /**
   * {@code pick_next_task()}: classes in rank order; when nothing is runnable the fair class's
   * newidle balance runs before the idle task is chosen. Adds its cost to {@link Kernel#pathCost}.
   */
  private Task pickNextTask(Cpu cpu, Task prev) {
    k.pathCost += k.costs.p(Param.PICK_FAIR);
    if (!prev.idleTask) {
      prev.sclass.balance(cpu, prev); // put_prev_task_balance(): e.g. balance_rt() pulls
    }
    boolean balanced = false;
    while (true) {
      Task t = pickFromClasses(cpu);
      if (t == null) {
        continue; // a plugin was ejected during the pick: ask the classes left
      }
      if (t.idleTask && !balanced && prev.classRank <= SchedulingClass.RANK_FAIR) {
        // pick_next_task_fair() found nothing: sched_balance_newidle() before idling.
        balanced = true;
        newidle.value++;
        if (k.balancer.newidle(cpu)) {
          continue;
        }
      }
      return t;
    }
  }

  /**
   * The first task a class returns, in rank order; null when a plugin was ejected meanwhile. With
   * no task of a class above fair queued, those classes are not asked: {@code __pick_next_task()}'s
   * fast path ({@code rq->nr_running == rq->cfs.h_nr_running}). A class can only pick its own
   * queued tasks ({@link PluginChecks#picked}), so the pick is the same.
   */
  private @Nullable Task pickFromClasses(Cpu cpu) {
    SchedulingClass[] classes = k.classes;
    int from = cpu.nrAboveFair == 0 ? fairIndex(classes) : 0;
    for (int i = from; i < classes.length; i++) {
      SchedulingClass c = classes[i];
      dev.schedlab.api.view.TaskView v = c.pickNext(cpu);
      if (classes != k.classes) {
        return null;
      }
      if (v != null) {
        return k.checks.picked(cpu, c, v);
      }
    }
    throw new IllegalStateException("no class returned a task on cpu " + cpu.id);
  }

  private SchedulingClass[] fairIndexOf = new SchedulingClass[0];
  private int fairIndex;

  /** Index of the first class ranked at or below fair in {@code classes} (cached per array). */
  private int fairIndex(SchedulingClass[] classes) {
    if (classes != fairIndexOf) {
      int i = 0;
      while (i < classes.length && classes[i].rank() > SchedulingClass.RANK_FAIR) {
        i++;
      }
      fairIndex = i;
      fairIndexOf = classes;
    }
    return fairIndex;
  }

  /** End of the {@code __schedule} window: IRQs on again, next runs. */
  void finish(Cpu cpu) {
    Task prev = Objects.requireNonNull(cpu.schedPrev); // set when the window opened
    Task next = cpu.curr;
    if (cpu.inBalanceCallbacks) {
      cpu.inBalanceCallbacks = false; // the callbacks' extra window is over
    } else {
      if (prev != next) {
        finishTaskSwitch(cpu, prev, next);
      }
      if (cpu.balanceCallback) {
        // __balance_callbacks() after finish_task(prev), still with the rq lock held and IRQs
        // off: what they cost (a push's migration) extends the window.
        cpu.balanceCallback = false;
        k.pathCost = 0;
        next.sclass.afterSwitch(cpu, next);
        if (k.pathCost > 0) {
          cpu.inBalanceCallbacks = true;
          k.setPhase(cpu, Cpu.P_SCHED, k.pathCost);
          return;
        }
      }
    }
    cpu.opIrqsOff = false;
    if (next.idleTask) {
      k.idleLoop.startIdle(cpu);
    } else if (next.needResched && prev != next) {
      // schedule() loops while need_resched(): a wakeup during the window preempts at once.
      schedule(cpu, SchedMode.PREEMPT, 0);
    } else {
      k.exec.resume(cpu);
    }
  }

  /** {@code finish_task_switch()}'s part before the balance callbacks: prev is off the CPU. */
  private void finishTaskSwitch(Cpu cpu, Task prev, Task next) {
    prev.onCpu = false;
    if (prev.locks.nrHeld > 0) {
      k.locks.ownerLeftCpu(cpu, prev); // mutex spinners watch owner->on_cpu
    }
    if (prev.state == TaskState.DEAD) {
      prev.sleepTimer.cancel();
    }
    if (next.idleTask) {
      k.nohz.busy(cpu); // it ran tasks until now: blocked load to decay while idle
    }
    k.exec.switchedIn(next);
    if (next.mm != null) {
      next.mm.used(cpu.id, k.now);
    }
  }

  // ---------------- resched protocol ----------------

  /** {@code resched_curr()} through the preemption model (H3). */
  void resched(Cpu cpu, ReschedReason reason) {
    Task curr = cpu.curr;
    ReschedBit bit = curr.idleTask ? ReschedBit.NR : k.model.chooseBit(cpu, curr, reason);
    setResched(cpu, bit);
  }

  /** {@code __resched_curr()}: sets the bit; a remote NR sends an IPI unless the target polls. */
  void setResched(Cpu cpu, ReschedBit bit) {
    Task t = cpu.curr;
    if (bit == ReschedBit.NONE) {
      return;
    }
    if (t.idleTask && bit == ReschedBit.LAZY) {
      bit = ReschedBit.NR;
    }
    if (t.needResched || (bit == ReschedBit.LAZY && t.needReschedLazy)) {
      return;
    }
    if (bit == ReschedBit.LAZY) {
      t.needReschedLazy = true;
      return;
    }
    if (cpu.id == k.thisCpu) {
      t.needResched = true;
      return;
    }
    if (cpu.reschedWriteFor == t) {
      return; // another waker's write is on its way, its IPI after it
    }
    if (k.signalDelay > 0 && !t.idleTask) {
      // The waker holds the target's rq lock until the write: the task running there sees the
      // flag only from then on, at its own preemption points as at the IPI's (sent below).
      cpu.reschedWriteFor = t;
      k.queue.schedule(cpu.reschedWrite, k.now + k.signalDelay);
    } else {
      t.needResched = true;
    }
    if (t.idleTask) {
      cpu.idleFlagsLine.wroteBy(k.cpus[k.thisCpu]); // set_nr_and_not_polling(): fetch_or()
    }
    if (t.polling) {
      k.irqs.pollingShortcut(cpu, IpiPath.RESCHED);
    } else {
      k.irqs.sendIpi(k.cpus[k.thisCpu], cpu, Cpu.IRQ_RESCHED, IpiPath.RESCHED);
    }
  }

  /** A remote waker's flag write lands on the task it was meant for, if still running there. */
  void reschedWritten(Cpu cpu) {
    Task t = cpu.reschedWriteFor;
    cpu.reschedWriteFor = null;
    if (t != null && cpu.curr == t) {
      t.needResched = true;
    }
  }

  /** Whether a pending bit on {@code t} makes {@code point} reschedule under the model (H4). */
  boolean wants(PreemptPoint point, Task t) {
    return (t.needResched && k.model.honours(point, ReschedBit.NR))
        || (t.needReschedLazy && k.model.honours(point, ReschedBit.LAZY));
  }

  // ---------------- tick ----------------

  /**
   * {@code sched_tick()}, in the timer interrupt: model upgrade, class tick, H5 stage; re-arms the
   * tick.
   */
  void tick(Cpu cpu) {
    cpu.ticks++;
    if (!cpu.tickStopped) {
      cpu.fullTickStopped = cpu.isolated && canStopFullTick(cpu);
      long next =
          cpu.fullTickStopped ? k.now + k.costs.p(Param.NOHZ_FULL_MAX_DEFER) : k.nextTickBoundary();
      k.queue.schedule(cpu.tickEv, next);
    }
    k.pathCost +=
        k.costs.p(Param.TICK_HANDLER) + cpu.rqIdleLine.write(cpu, k.irqs); // update_rq_clock()
    Task curr = cpu.curr;
    cpu.clock = k.now;
    RqPelt.updateOthers(cpu);
    if (!curr.idleTask) {
      account(cpu);
      if (curr.needReschedLazy && k.model.tickUpgrade(cpu, curr)) {
        curr.needResched = true;
      }
      curr.sclass.tick(cpu, curr);
      k.balancer.updateMisfit(cpu, curr);
      tickStage.onTick(cpu, curr, k.services);
    }
    cpu.idleBalance = cpu.isIdle();
    if (!cpu.idleBalance) {
      busyTicks.value++; // only a busy tick runs nohz_balancer_kick()
    }
    k.balancer.trigger(cpu);
  }

  /** {@code sched_can_stop_tick()} for a nohz_full CPU. */
  private static boolean canStopFullTick(Cpu cpu) {
    Task curr = cpu.curr;
    if (curr.idleTask) {
      return false;
    }
    return switch (curr.policy) {
      case DEADLINE -> false;
      case FIFO -> true;
      default -> cpu.nrRunning == 1;
    };
  }

  /** A task was queued on a nohz_full CPU whose tick is deferred: the tick must run again. */
  private void restartFullTick(Cpu cpu) {
    if (cpu.fullTickStopped && !canStopFullTick(cpu)) {
      cpu.fullTickStopped = false;
      k.queue.schedule(cpu.tickEv, k.nextTickBoundary());
    }
  }

  // ---------------- wakeups ----------------

  /**
   * {@code try_to_wake_up()} from {@code k.thisCpu}; its cost is added to {@link Kernel#pathCost}.
   */
  void wakeUp(Task p, int wakeFlags) {
    if (p.state == TaskState.RUNNING || p.state == TaskState.DEAD) {
      return;
    }
    wakeups.value++;
    Cpu waker = k.cpus[k.thisCpu];
    if (k.trace.enabled()) {
      Task cur = waker.curr;
      k.trace.schedWaking(
          k.now, waker.id, cur.traceComm(), cur.tracePid(), p.comm, p.pid, p.prio(), p.cpu);
    }
    p.state = TaskState.RUNNING;
    if (dequeuedAtWakeup(p)) {
      dequeueDelayedWakee(waker, p); // then down the regular path below, CPU selection included
    }
    if (p.onRq) {
      // ttwu_runnable(): still queued (blocking, delayed dequeue, or spinning before idle).
      wakeRunnable.value++;
      k.pathCost += k.costs.p(Param.TTWU_RUNNABLE);
      Cpu rq = k.cpus[p.cpu];
      if (p.delayed) {
        // Requeue a delayed-dequeue task in place, whether or not it is still on its CPU. Only
        // the clock moves first (update_rq_clock()): curr is charged by wakeup_preempt()'s
        // update_curr(), after requeue_delayed_entity() has read the lag against curr as it was.
        p.delayed = false;
        fairRunnable(rq, p, 1);
        rq.clock = k.now;
        p.sclass.enqueue(rq, p, SchedFlags.ENQUEUE_DELAYED);
      }
      if (!p.onCpu) {
        wakeupPreempt(rq, p, wakeFlags);
      }
      k.ext.runnableWake().onRunnableWake(rq, p, k.services);
      if (p.onCpu) {
        spinWindow.spinnerWoken(rq);
      }
      if (k.trace.enabled()) {
        // ttwu_do_wakeup() traces sched_wakeup on this path too
        Task cur = waker.curr;
        k.trace.schedWakeup(
            k.now, waker.id, cur.traceComm(), cur.tracePid(), p.comm, p.pid, p.prio(), rq.id);
      }
      return;
    }
    int target = selectCpu(p, waker.id, wakeFlags | SchedFlags.WF_TTWU);
    Cpu t = k.cpus[target];
    if (k.costs.on(Param.TTWU_QUEUE) && t != waker && queueCond(waker, t)) {
      wakeRemoteQueued.value++;
      if (p.cpu != target) {
        migrations.value++;
      }
      p.cpu = target;
      k.irqs.queueWakeup(waker, t, p);
      return;
    }
    long activation = k.costs.p(Param.TTWU_LOCAL) + remoteRqLock(waker, t);
    k.pathCost += activation;
    activate(t, p, SchedFlags.ENQUEUE_WAKEUP);
    // resched_curr() ends ttwu_do_activate(): its flag write and IPI come after the activation
    k.signalDelay = activation;
    try {
      wakeupPreempt(t, p, wakeFlags);
    } finally {
      k.signalDelay = 0;
    }
    if (!p.onCpu) {
      p.sclass.taskWoken(t, p);
    }
  }

  /**
   * Whether a woken delayed-dequeue task completes its dequeue instead of being requeued in place:
   * with {@code feature.TTWU_DEQUEUE}, a task that may run elsewhere and shares its runqueue (a
   * pinned one, or one alone there, is requeued).
   */
  private boolean dequeuedAtWakeup(Task p) {
    return p.onRq
        && p.delayed
        && !p.onCpu
        && k.costs.on(Param.TTWU_DEQUEUE)
        && k.cpus[p.cpu].nrRunning > 1
        && p.nrAllowed > 1;
  }

  /**
   * {@code ttwu_runnable()} on a delayed-dequeue task with {@code feature.TTWU_DEQUEUE}, when its
   * runqueue runs another task and it may run elsewhere ({@code rq->nr_running > 1 &&
   * p->nr_cpus_allowed > 1}): under the task's runqueue lock the delayed dequeue completes ({@code
   * DEQUEUE_DELAYED | DEQUEUE_SLEEP}) and the wakeup goes on as for a task that had left the
   * runqueue.
   */
  private void dequeueDelayedWakee(Cpu waker, Task p) {
    Cpu rq = k.cpus[p.cpu];
    k.pathCost += k.costs.p(Param.TTWU_RUNNABLE) + remoteRqLock(waker, rq);
    account(rq);
    p.sclass.dequeue(rq, p, SchedFlags.DEQUEUE_SLEEP | SchedFlags.DEQUEUE_DELAYED);
    p.onRq = false;
    removeQueued(rq, p); // still marked delayed: it no longer counted as runnable
    p.delayed = false;
    k.checks.counts(rq, p, "dequeue");
  }

  /**
   * {@code ttwu_queue_cond()} for a target other than the waker's CPU: across LLCs always; within
   * the waker's LLC only a target with nothing running, and only since v6.0 ({@code
   * feature.TTWU_QUEUE_IDLE}; before, the waker activated every task of its LLC itself).
   */
  private boolean queueCond(Cpu waker, Cpu t) {
    if (waker.llcId != t.llcId) {
      return true;
    }
    return t.nrRunning == 0 && k.costs.on(Param.TTWU_QUEUE_IDLE);
  }

  /**
   * The waker's wait for another CPU's runqueue in {@code ttwu_queue()}: {@code rq_lock()} takes
   * the lock's line ({@code struct rq}'s first, with {@code nr_running}) and {@code
   * update_rq_clock()} writes the line of {@code rq->clock}. The target writes both under its own
   * lock in {@code __schedule()} and the tick, so the lock's line moves whenever the clock's does.
   */
  private long remoteRqLock(Cpu waker, Cpu t) {
    return t == waker ? 0 : 2 * t.rqIdleLine.write(waker, k.irqs);
  }

  private int selectCpu(Task p, int wakerCpu, int wakeFlags) {
    if (p.nrAllowed == 1) {
      return p.allowed.nextSetBit(0);
    }
    k.pathCost += k.costs.p(Param.SELECT_RQ);
    int c = p.sclass.selectCpu(p, p.cpu, wakerCpu, wakeFlags);
    if (!k.checks.cpuChosen(p, c)) {
      return selectCpu(p, wakerCpu, wakeFlags); // its plugin was ejected: the task is fair's now
    }
    c =
        k.ext
            .selectTaskRq()
            .selectTaskRq(p, p.cpu, wakerCpu, wakeFlags, c); // H16, checked in its guard
    if (c < 0 || c >= k.cpus.length || !p.allowed.get(c)) {
      throw new IllegalStateException("H16 selected cpu " + c + " outside the affinity of " + p);
    }
    return c;
  }

  /** {@code sched_ttwu_pending()}: a wake-list entry is activated on its target CPU. */
  void activateQueued(Cpu cpu, Task p) {
    k.checks.enqueuing(p);
    k.pathCost += k.costs.p(Param.TTWU_LOCAL);
    activate(cpu, p, SchedFlags.ENQUEUE_WAKEUP);
    wakeupPreempt(cpu, p, 0);
    if (!p.onCpu) {
      p.sclass.taskWoken(cpu, p);
    }
  }

  /** {@code activate_task()} + the {@code avg_idle} update of {@code ttwu_do_activate()}. */
  void activate(Cpu cpu, Task p, int flags) {
    p.runnableAt = k.now;
    if (p.cpu != cpu.id) {
      flags |= SchedFlags.ENQUEUE_MIGRATED;
      migrations.value++;
    }
    p.cpu = cpu.id;
    p.onRq = true;
    fairRunnable(cpu, p, 1);
    int before = cpu.nrRunning;
    cpu.nrRunning++;
    cpu.idleChanged();
    RunQueueList.add(cpu, p);
    k.balancer.nrRunningChanged(cpu, before);
    account(cpu);
    p.sclass.enqueue(cpu, p, flags);
    k.checks.counts(cpu, p, "enqueue");
    restartFullTick(cpu);
    if (cpu.idleStamp != 0) {
      long delta = k.now - cpu.idleStamp;
      long max = 2 * cpu.maxIdleBalanceCost;
      // update_avg() then the cap, as ttwu_do_activate() does (a long idle moves the average
      // by an eighth, it does not set it to the cap).
      cpu.avgIdle = Math.min(max, cpu.avgIdle + (delta - cpu.avgIdle) / 8);
      cpu.idleStamp = 0;
    }
    if (k.trace.enabled()) {
      Task cur = k.cpus[k.thisCpu].curr;
      if ((flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
        k.trace.schedWakeupNew(
            k.now, k.thisCpu, cur.traceComm(), cur.tracePid(), p.comm, p.pid, p.prio(), cpu.id);
      } else {
        k.trace.schedWakeup(
            k.now, k.thisCpu, cur.traceComm(), cur.tracePid(), p.comm, p.pid, p.prio(), cpu.id);
      }
    }
  }

  /** {@code wakeup_preempt()}: higher class → resched; same class → the class decides. */
  void wakeupPreempt(Cpu cpu, Task p, int wakeFlags) {
    Task curr = cpu.curr;
    if (curr.idleTask) {
      resched(cpu, ReschedReason.IDLE_CURR);
    } else if (p.classRank > curr.classRank) {
      resched(cpu, ReschedReason.WAKEUP_HIGHER_CLASS);
    } else if (p.sclass == curr.sclass) {
      account(cpu);
      p.sclass.wakeupPreempt(cpu, p, wakeFlags);
    }
    if ((curr.idleTask || curr.onRq) && (curr.needResched || cpu.reschedWriteFor == curr)) {
      cpu.clockSkip = true; // rq_clock_skip_update(): the switch this asks for reuses this clock
    }
  }

  /**
   * {@code move_queued_task()}: dequeue from {@code src}, enqueue on {@code dst}, preempt check.
   */
  void moveQueued(Task t, Cpu src, Cpu dst) {
    account(src);
    if (!t.sclass.dequeue(src, t, SchedFlags.DEQUEUE_MIGRATING)) {
      throw new IllegalStateException("class " + t.sclass.name() + " kept " + t + " on migration");
    }
    removeQueued(src, t);
    activate(dst, t, SchedFlags.ENQUEUE_MIGRATED);
    wakeupPreempt(dst, t, 0);
  }

  /**
   * {@code wake_up_new_task()}: place a new task ({@code select_task_rq()} with WF_FORK from the
   * CPU it is created on) and wake it. A task with a start CPU starts there; one that existed
   * before the run is enqueued as a woken task ({@code ENQUEUE_WAKEUP} beside {@code
   * ENQUEUE_INITIAL}: it is no fork, so {@code place_entity()} gives it a whole slice, not a new
   * task's half). A forked task is woken from its parent's CPU: a remote target is rescheduled by
   * IPI (or the polling shortcut), as for any remote wakeup; a task of the scenario has no parent
   * and wakes its CPU directly.
   */
  void wakeUpNewTask(Task p) {
    int cpu = p.cpu;
    if (p.nrAllowed > 1 && p.startCpu < 0) {
      long saved = k.pathCost; // the fork's own cost is not modelled
      cpu = selectCpu(p, k.thisCpu, SchedFlags.WF_FORK);
      k.pathCost = saved;
    }
    k.checks.enqueuing(p);
    p.state = TaskState.RUNNING;
    p.started = true;
    Cpu c = k.cpus[cpu];
    boolean forked = p.forkCpu >= 0;
    k.thisCpu = forked ? p.forkCpu : cpu;
    p.cpu = cpu;
    activate(
        c,
        p,
        p.existedBefore
            ? SchedFlags.ENQUEUE_INITIAL | SchedFlags.ENQUEUE_WAKEUP
            : SchedFlags.ENQUEUE_INITIAL);
    wakeupPreempt(c, p, SchedFlags.WF_FORK);
    if (!forked && c.phase == Cpu.P_IDLE_STATE && c.curr.needResched) {
      k.idleLoop.wakeFromState(c, true);
    }
  }
}
