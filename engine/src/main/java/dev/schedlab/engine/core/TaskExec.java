package dev.schedlab.engine.core;

import dev.schedlab.api.DeferredWork;
import dev.schedlab.api.IpiPath;
import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.params.Param;
import java.util.Objects;

/**
 * Runs task programs on their CPU. Every preemption point asks the model (H4) whether a pending bit
 * acts there.
 *
 * <p>Models: user computation; syscalls made of kernel segments, each preemptible or not, with IRQs
 * on or off, ending in a preemption point (cond_resched, might_resched, or none); syscall entry and
 * exit to user mode (task_work, resched, latency samples); sleeps on hrtimers; wait queues;
 * cross-CPU calls with {@code csd_lock_wait()}; lock operations ({@link Locks}).
 *
 * <p>Does not model: what the kernel segments do (a workload gives their durations), signals, and
 * page faults other than as kernel segments.
 *
 * <p>Kernel reference: {@code kernel/entry/common.c} ({@code syscall_exit_to_user_mode}, {@code
 * exit_to_user_mode_loop}), {@code kernel/sched/core.c} ({@code __cond_resched}, {@code
 * __might_resched}), {@code kernel/time/hrtimer.c} ({@code hrtimer_nanosleep}), {@code
 * kernel/sched/wait.c}, {@code kernel/smp.c}.
 */
final class TaskExec {
  /** A callback whose work is its cost alone (a kernel path's RCU-deferred free). */
  private static final DeferredWork NO_WORK = c -> {};

  /** {@code Task.opRemaining} while waiting in {@code csd_lock_wait()} with no end yet. */
  private static final long WAITING = -2;

  /** Kernel priorities below this are RT or DL ({@code rt_prio()}). */
  private static final int MAX_RT_PRIO = 100;

  private final Kernel k;
  private final MetricCounter taskWorksRun;

  /** The thread-level ops (yield, affinity, timers, condition variables, fork, ...). */
  final ThreadOps threads;

  TaskExec(Kernel k) {
    this.k = k;
    taskWorksRun = k.metrics.counter("task_work.runs");
    threads = new ThreadOps(k, this);
  }

  /** {@code t} becomes (or stays) the running task of {@code cpu}: continue its program. */
  void resume(Cpu cpu) {
    Task t = cpu.curr;
    if (t.userResume >= 0 && !t.inTaskWork) {
      long r = t.userResume;
      t.userResume = -1;
      runUser(cpu, t, wallLeft(t, r));
    } else if (t.opRemaining != -1) {
      Op op = t.program[t.pc];
      setAttrs(cpu, t, op);
      if (t.inTaskWork) {
        cpu.opUser = false;
      }
      long r = wallLeft(t, t.opRemaining);
      k.setPhase(cpu, Cpu.P_TASK, r == WAITING ? -1 : r);
    } else {
      startOp(cpu, t);
      return;
    }
    k.irqs.takePending(cpu);
  }

  /** What is left of the op at pc: a wall-clock compute op ends at its end time whatever ran. */
  private long wallLeft(Task t, long remaining) {
    Op op = t.program[t.pc];
    return op.code == Op.USER_WALL && remaining >= 0 ? Math.max(0, t.wallEnd - k.now) : remaining;
  }

  private void setAttrs(Cpu cpu, Task t, Op op) {
    switch (op.code) {
      case Op.USER, Op.USER_WALL -> {
        cpu.opUser = !t.kthread;
        cpu.opPreemptible = true;
        cpu.opIrqsOff = false;
      }
      case Op.KSEG -> {
        // a spinlock held raises preempt_count (and, _irqsave, keeps IRQs off) over the segment
        cpu.opUser = false;
        cpu.opPreemptible = op.preemptible && t.locks.preemptCount == 0;
        cpu.opIrqsOff = op.irqsOff || t.locks.irqsOff > 0;
      }
      case Op.LOCK, Op.UNLOCK -> {
        cpu.opUser = false;
        cpu.opPreemptible = t.locks.preemptCount == 0;
        cpu.opIrqsOff = t.locks.irqsOff > 0;
      }
      case Op.KWORK -> {
        cpu.opUser = false;
        cpu.opPreemptible = true;
        cpu.opIrqsOff = false;
      }
      case Op.KSOFTIRQD -> {
        // handle_softirqs() runs with bottom halves disabled: no preemption until it returns
        cpu.opUser = false;
        cpu.opPreemptible = false;
        cpu.opIrqsOff = false;
      }
      case Op.CALL -> {
        // smp_call_function_single() runs with preemption disabled (get_cpu()).
        cpu.opUser = false;
        cpu.opPreemptible = false;
        cpu.opIrqsOff = false;
      }
      default -> {
        cpu.opUser = false;
        cpu.opPreemptible = true;
        cpu.opIrqsOff = false;
      }
    }
  }

  long draw(Task t, Dist d) {
    return switch (d.kind()) {
      case UNIFORM -> d.a() + (d.b() > d.a() ? t.rng.nextLong(d.b() - d.a() + 1) : 0);
      case EXP -> Math.round(-Math.log(1.0 - t.rng.nextDouble()) * d.a());
      default -> d.a();
    };
  }

  void run(Cpu cpu, Task t, Op op, long duration) {
    setAttrs(cpu, t, op);
    t.opRemaining = duration;
    k.setPhase(cpu, Cpu.P_TASK, duration);
    k.irqs.takePending(cpu);
  }

  private void runUser(Cpu cpu, Task t, long remaining) {
    Op op = t.program[t.pc];
    run(cpu, t, op, remaining);
  }

  /**
   * A task that was asleep before the run began (an imported trace's): it is created inside the
   * system call of its first step, asleep in the step's {@code block} or {@code sleep}, and runs
   * only when that ends (a wake of the queue, or the sleep's timer on its CPU). False when the
   * first step is neither, or its queue was woken already: the task then starts as a new one.
   */
  boolean startAsleep(Task t) {
    int pc = t.pc;
    if (pc < t.program.length && t.program[pc].code == Op.SYSCALL_ENTER) {
      pc++;
    }
    if (pc >= t.program.length) {
      return false;
    }
    Op op = t.program[pc];
    if (op.code == Op.BLOCK && op.waitQueue.pendingWakeups == 0) {
      op.waitQueue.sleepers.add(t);
    } else if (op.code == Op.SLEEP) {
      t.timerExpiry = k.now + draw(t, op.dist);
      t.sleepTimer.cpu = t.cpu;
      t.sleepTimer.arm(t.timerExpiry, slack(t));
    } else {
      return false;
    }
    t.pc = pc + 1;
    t.inKernel = !t.kthread;
    t.syscallStart = k.now;
    t.state = TaskState.INTERRUPTIBLE;
    t.started = true;
    return true;
  }

  /** The end of a loop's body: the next iteration, or back to the ops after the loop. */
  private static void loopBodyEnd(Task t) {
    int d = t.loopDepth - 1;
    if (--t.loopLeft[d] > 0) {
      Op loop = t.loopCaller[d][t.loopReturn[d] - 1];
      if (loop.code == Op.PICK) {
        int[] seq = t.draws[loop.draws];
        t.program = loop.choices[seq[seq.length - t.loopLeft[d]]];
      }
      t.pc = 0;
    } else {
      t.program = t.loopCaller[d];
      t.pc = t.loopReturn[d];
      t.loopDepth = d;
    }
  }

  /** The draw sequence a PICK op of {@code t} reads. */
  private static int[] drawsOf(Task t, Op pick) {
    int[] seq = pick.draws < t.draws.length ? t.draws[pick.draws] : null;
    if (seq == null) {
      throw new IllegalStateException(t + ": a pick step over draws the task does not have");
    }
    return seq;
  }

  /** Interprets ops from {@code t.pc} until one takes time or blocks. */
  void startOp(Cpu cpu, Task t) {
    for (int guard = 0; guard < 1_000_000; guard++) {
      if (t.pc >= t.program.length) {
        if (t.loopDepth > 0) {
          loopBodyEnd(t);
          continue;
        }
        t.pc = 0;
      }
      Op op = t.program[t.pc];
      switch (op.code) {
        case Op.USER, Op.KSEG -> {
          long d = draw(t, op.dist);
          run(cpu, t, op, op.perCached ? d * t.cacheMoved : d);
          return;
        }
        case Op.SYSCALL_ENTER -> {
          if (t.kthread) {
            t.pc++;
            continue;
          }
          t.inKernel = true;
          t.syscallStart = k.now;
          if (t.latency != null) {
            t.latency.syscallEntered(k.now, t.timerExpiry);
          }
          run(cpu, t, op, k.costs.p(Param.SYSCALL_ENTRY));
          return;
        }
        case Op.SYSCALL_EXIT -> {
          if (t.kthread) {
            recordSample(t);
            t.pc++;
            continue;
          }
          if (t.notifyResume && k.sched.wants(PreemptPoint.EXIT_TO_USER, t)) {
            // exit_to_user_mode_loop(): schedule() first, task_work after being switched back in.
            k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
            return;
          }
          run(cpu, t, op, exitToUserCost(cpu, t));
          return;
        }
        case Op.SLEEP -> {
          long d = draw(t, op.dist);
          if (op.sample != null || t.latency != null) {
            LatencyProbe p = t.probe();
            p.pendingUser = op.sample;
            p.userBase = (t.kthread ? k.now : t.syscallStart) + d;
          }
          t.pc++;
          sleepUntil(cpu, t, k.now + d);
          return;
        }
        case Op.SLEEP_UNTIL -> {
          LatencyProbe p = t.probe();
          if (p.nextPeriod == 0) {
            // The first absolute expiry counts from when the task first gets here (cyclictest:
            // next = now + interval at thread start).
            p.nextPeriod = t.kthread ? k.now : t.syscallStart;
          }
          p.nextPeriod += op.periodNs;
          p.pendingUser = op.sample;
          p.userBase = p.nextPeriod;
          p.pendingIrq = op.irqSample;
          p.pendingThread = op.threadSample;
          p.pendingRetUser = op.retUserSample;
          t.pc++;
          sleepUntil(cpu, t, p.nextPeriod);
          return;
        }
        case Op.BLOCK -> {
          t.pc++;
          if (op.waitQueue.pendingWakeups > 0) {
            op.waitQueue.pendingWakeups--;
            continue;
          }
          op.waitQueue.sleepers.add(t);
          t.state = TaskState.INTERRUPTIBLE;
          k.sched.schedule(cpu, SchedMode.NONE, 0);
          return;
        }
        case Op.WAKE -> {
          Task w = op.waitQueue.sleepers.poll();
          k.pathCost = 0;
          if (w == null) {
            op.waitQueue.pendingWakeups++;
          } else {
            k.sched.wakeUp(w, op.flag ? SchedFlags.WF_SYNC : 0);
          }
          run(cpu, t, op, k.pathCost);
          return;
        }
        case Op.CALL -> {
          // smp_call_function_single(): fill in the CSD (on this stack with wait=1, where the
          // target's csd_unlock() wrote it last), llist_add() it to the target's queue, then
          // call_function_single_prep_ipi() reads rq->idle and set_nr_if_polling() the idle
          // task's flags, before deciding whether an IPI is needed.
          Cpu target = k.cpus[op.cpu];
          t.csdQueued = false;
          long wait =
              cpu.syncCsdLine.write(cpu, k.irqs)
                  + target.callQueueLine.write(cpu, k.irqs)
                  + target.rqIdleLine.read(cpu, k.irqs)
                  + target.idleFlagsLine.read(cpu, k.irqs);
          run(cpu, t, op, wait);
          return;
        }
        case Op.LOOP -> {
          int d = t.loopDepth++;
          t.loopLeft[d] = op.count;
          t.loopCaller[d] = t.program;
          t.loopReturn[d] = t.pc + 1;
          t.program = op.body;
          t.pc = 0;
          continue;
        }
        case Op.PICK -> {
          int[] seq = drawsOf(t, op);
          if (seq.length == 0) {
            t.pc++;
            continue;
          }
          int d = t.loopDepth++;
          t.loopLeft[d] = seq.length;
          t.loopCaller[d] = t.program;
          t.loopReturn[d] = t.pc + 1;
          t.program = op.choices[seq[0]];
          t.pc = 0;
          continue;
        }
        case Op.MARK -> {
          if (op.stamp[0] >= 0 && k.now >= op.stamp[0] + op.countFromNs) {
            op.counter.value++;
          }
          t.pc++;
          continue;
        }
        case Op.STAMP -> {
          op.stamp[0] = k.now;
          t.pc++;
          continue;
        }
        case Op.SINCE -> {
          if (op.stamp[0] >= 0) {
            Objects.requireNonNull(op.sample).record(k.now - op.stamp[0]);
          }
          t.pc++;
          continue;
        }
        case Op.EXIT -> {
          exit(cpu, t);
          return;
        }
        case Op.CACHE -> {
          // per-CPU batching: run the refill/drain items that follow, or jump past them
          Op.CacheOp c = op.cache;
          t.cacheMoved = c.cache().apply(cpu.id, c);
          t.pc += t.cacheMoved > 0 ? 1 : op.jump;
          continue;
        }
        case Op.CALL_RCU -> {
          for (int i = 0; i < op.count; i++) {
            k.rcu.callRcu(cpu, new WorkItem(op.costNs, NO_WORK, cpu.id));
          }
          t.pc++;
          continue;
        }
        case Op.KSOFTIRQD -> {
          if (!k.irqs.softirqPending(cpu)) {
            t.state = TaskState.INTERRUPTIBLE;
            k.sched.schedule(cpu, SchedMode.NONE, 0);
            return;
          }
          run(cpu, t, op, k.irqs.ksoftirqdBegin(cpu));
          return;
        }
        case Op.LOCK -> {
          k.locks.lock(cpu, t, op);
          return;
        }
        case Op.UNLOCK -> {
          k.locks.unlock(cpu, t, op);
          return;
        }
        case Op.KWORK -> {
          WorkItem w = Objects.requireNonNull(t.workQueue).poll();
          if (w == null) {
            t.state = TaskState.INTERRUPTIBLE;
            k.sched.schedule(cpu, SchedMode.NONE, 0);
            return;
          }
          t.currentWork = w;
          // a stopper's work (an active balance) has no callback overhead of its own
          run(cpu, t, op, (t.stopper() ? 0 : k.costs.p(Param.RCU_CB_OVERHEAD)) + w.costNs);
          return;
        }
        default -> {
          if (threads.start(cpu, t, op)) {
            continue;
          }
          return;
        }
      }
    }
    throw new IllegalStateException(t + ": program loops without taking time");
  }

  private long exitToUserCost(Cpu cpu, Task t) {
    long cost = k.costs.p(Param.EXIT_TO_USER);
    if (t.notifyResume) {
      // exit_to_user_mode_loop(): resume_user_mode_work() -> task_work_run()
      t.notifyResume = false;
      k.ext.exitToUser().onExitToUser(cpu, t, k.services);
      cost += k.costs.p(Param.TASK_WORK_OVERHEAD);
      int n = t.nrWorks;
      t.nrWorks = 0;
      for (int i = 0; i < n; i++) {
        TaskWorkItem w = t.works[i];
        t.works[i] = null;
        cost += w.run(t, cpu.id);
      }
      taskWorksRun.value += n;
    }
    return cost;
  }

  void sleepUntil(Cpu cpu, Task t, long expiry) {
    t.timerExpiry = expiry;
    t.sleepTimer.cpu = cpu.id;
    long slack = slack(t);
    long reprogram =
        k.costs.clockeventReprogramCost(cpu, expiry + slack); // hrtimer_start(): earliest?
    t.sleepTimer.arm(expiry, slack);
    t.state = TaskState.INTERRUPTIBLE;
    k.sched.schedule(cpu, SchedMode.NONE, reprogram);
  }

  /**
   * hrtimer_nanosleep(): rt_task() (prio below MAX_RT_PRIO: RT and DL) sleeps to the nanosecond,
   * other tasks get the timer slack.
   */
  private long slack(Task t) {
    return t.prio() < MAX_RT_PRIO
        ? 0
        : t.timerSlackNs >= 0 ? t.timerSlackNs : k.costs.p(Param.TIMER_SLACK);
  }

  private void exit(Cpu cpu, Task t) {
    if (t.locks.nrHeld > 0) {
      throw new IllegalStateException(t + " exits holding lock " + t.locks.held[0]);
    }
    k.metrics.counter("task.exited").value++;
    k.liveTasks--;
    k.metrics.counter("task.last_exit_ns").value = k.now;
    t.state = TaskState.DEAD;
    k.sched.schedule(cpu, SchedMode.NONE, 0);
  }

  /** Back in user space (or, for a kthread, past the sleep): the user-side sample. */
  private void recordSample(Task t) {
    threads.backInUser(t);
    if (t.latency != null) {
      t.latency.backInUser(k.now);
    }
  }

  /** The task runs again after a switch: timerlat's Thread latency. */
  void switchedIn(Task t) {
    if (t.latency != null) {
      t.latency.switchedIn(k.now, t.timerExpiry);
    }
  }

  /** The sleep timer's handler runs: timerlat's IRQ latency. */
  void timerHandled(Task t) {
    if (t.latency != null) {
      t.latency.timerHandled(k.now, t.timerExpiry);
    }
  }

  /** The CSD is queued: send it (IPI or polling shortcut), then wait for it if asked. */
  private void issueCall(Cpu cpu, Task t, Op op) {
    k.pathCost = 0;
    Cpu target = k.cpus[op.cpu];
    k.irqs.callFunction(cpu, target, op.costNs, null, op.flag ? t : null, IpiPath.CALL_FUNCTION);
    setAttrs(cpu, t, op);
    if (op.flag) {
      t.csdWaiting = true;
      t.opRemaining = WAITING;
      k.setPhase(cpu, Cpu.P_TASK, -1);
    } else {
      t.opRemaining = k.pathCost;
      k.setPhase(cpu, Cpu.P_TASK, k.pathCost);
    }
    k.irqs.takePending(cpu);
  }

  /**
   * A lock op that takes {@code cost} ns (an uncontended acquisition, a release and its wakeups).
   */
  void runLockOp(Cpu cpu, Task t, Op op, long cost) {
    run(cpu, t, op, cost);
  }

  /** The LOCK op waits with no end known yet: a spin until a handoff or an abort. */
  void waitOnLock(Cpu cpu, Task t, Op op) {
    setAttrs(cpu, t, op);
    t.opRemaining = WAITING;
    k.setPhase(cpu, Cpu.P_TASK, -1);
    k.irqs.takePending(cpu);
  }

  /** The spin of {@code waiter} ends at {@code when} (it sees the handoff, or stops spinning). */
  void lockWaitEnds(Task waiter, long when) {
    Cpu cpu = k.cpus[waiter.cpu];
    if (cpu.curr == waiter && cpu.phase == Cpu.P_TASK && !cpu.phaseEv.scheduled()) {
      waiter.opRemaining = when - k.now;
      cpu.opScaled = false; // waiting for a cache line, not computing
      k.queue.schedule(cpu.phaseEv, when);
    } else {
      waiter.opRemaining = Math.max(0, when - k.now); // in an interrupt: resumes after it
    }
  }

  /** The running op finished. */
  void opDone(Cpu cpu) {
    Task t = cpu.curr;
    t.opRemaining = -1;
    if (t.inTaskWork) {
      t.inTaskWork = false;
      if (k.sched.wants(PreemptPoint.EXIT_TO_USER, t)) {
        k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
      } else {
        resume(cpu);
      }
      return;
    }
    Op op = t.program[t.pc];
    switch (op.code) {
      case Op.KSEG -> {
        if (op.irqsOff && t.locks.irqsOff == 0 && cpu.pendingIrqs != 0) {
          // spin_unlock_irqrestore: the latched IRQ runs at the restore, before the
          // preempt_enable() below; come back here (zero work left) once it has exited.
          cpu.opIrqsOff = false;
          t.opRemaining = 0;
          k.irqs.takePending(cpu);
          return;
        }
        t.pc++;
        // A locked span ends with its unlock (preempt_enable) before the point that follows it
        // (spin_unlock then cond_resched: zap_pte_range, change_pte_range).
        boolean atomic = t.locks.preemptCount > 0; // inside a spinlock: no point acts here
        if (!atomic
            && ((!op.preemptible && k.sched.wants(PreemptPoint.PREEMPT_ENABLE, t))
                || (op.endsWith != null && k.sched.wants(op.endsWith, t)))) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
      }
      case Op.SYSCALL_EXIT -> {
        if (k.sched.wants(PreemptPoint.EXIT_TO_USER, t)) {
          // exit_to_user_mode_loop: schedule, then run the loop again.
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
        t.inKernel = false;
        recordSample(t);
        t.pc++;
      }
      case Op.KSOFTIRQD -> {
        long next = k.irqs.ksoftirqdNext(cpu);
        if (next >= 0) {
          run(cpu, t, op, next); // handle_softirqs() restarts
          return;
        }
        if (k.sched.wants(PreemptPoint.COND_RESCHED, t)) { // run_ksoftirqd(): cond_resched()
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
      }
      case Op.KWORK -> {
        WorkItem w = Objects.requireNonNull(t.currentWork);
        t.currentWork = null;
        if (!t.stopper()) {
          k.deferred.account(cpu.id, k.costs.p(Param.RCU_CB_OVERHEAD) + w.costNs);
        }
        w.fn.run(cpu.id);
        if (k.sched.wants(PreemptPoint.COND_RESCHED, t)) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
      }
      case Op.CALL -> {
        if (!t.csdQueued) {
          t.csdQueued = true;
          issueCall(cpu, t, op);
          return;
        }
        t.pc++;
        if (k.sched.wants(PreemptPoint.PREEMPT_ENABLE, t)) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
      }
      case Op.LOCK -> {
        if (t.locks.waiting != null && !k.locks.spinEnded(cpu, t, op)) {
          return; // gave up spinning and went to sleep on the wait list
        }
        t.pc++;
        if (k.locks.sleeping(op.lockClass)
            && t.locks.preemptCount == 0
            && k.sched.wants(PreemptPoint.PREEMPT_ENABLE, t)) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0); // preempt_enable() after the spin
          return;
        }
      }
      case Op.UNLOCK -> {
        t.pc++;
        if (k.locks.unlockDone(t, op) && k.sched.wants(PreemptPoint.PREEMPT_ENABLE, t)) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0); // spin_unlock's preempt_enable()
          return;
        }
      }
      case Op.WAKE, Op.SIGNAL, Op.BARRIER, Op.UNCHARGE, Op.FUTEX_WAKE -> {
        t.pc++;
        if (k.sched.wants(PreemptPoint.PREEMPT_ENABLE, t)) {
          k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
          return;
        }
      }
      default -> {
        t.pc++;
      }
    }
    startOp(cpu, t);
  }

  /** IRQ exit back into a task: the IRQ-exit preemption point, and task_work on the way to user. */
  void irqExitToTask(Cpu cpu) {
    Task t = cpu.curr;
    long remaining = cpu.savedRemaining;
    t.opRemaining =
        remaining >= 0
            ? remaining
            : (t.csdWaiting || t.locks.spinWaiting ? WAITING : t.opRemaining);
    if (k.locks.spinnerSeesResched(t)) {
      t.opRemaining = 0; // mutex_spin_on_owner(): need_resched() ends the spin
    }
    if (cpu.opUser) {
      // exit_to_user_mode_loop(): NEED_RESCHED is served before TIF_NOTIFY_RESUME work.
      if (t.notifyResume && !k.sched.wants(PreemptPoint.EXIT_TO_USER, t)) {
        // exit_to_user_mode_loop runs task_work in the task's context before user code resumes.
        t.userResume = remaining;
        t.opRemaining = -1;
        long cost = exitToUserCost(cpu, t);
        cpu.opUser = false;
        cpu.opPreemptible = true;
        cpu.opIrqsOff = false;
        k.setPhase(cpu, Cpu.P_TASK, cost);
        t.inTaskWork = true;
        return;
      }
      if (k.sched.wants(PreemptPoint.EXIT_TO_USER, t)) {
        k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
        return;
      }
    } else if (cpu.opPreemptible && k.sched.wants(PreemptPoint.IRQ_EXIT_KERNEL, t)) {
      k.sched.schedule(cpu, SchedMode.PREEMPT, 0);
      return;
    }
    cpu.phase = Cpu.P_TASK;
    resume(cpu);
  }

  /** The CSD {@code waiter} waits for was run; its {@code csd_lock_wait()} ends at {@code when}. */
  void csdDone(Task waiter, long when) {
    waiter.csdWaiting = false;
    Cpu cpu = k.cpus[waiter.cpu];
    if (cpu.curr == waiter && cpu.phase == Cpu.P_TASK && !cpu.phaseEv.scheduled()) {
      waiter.opRemaining = when - k.now;
      cpu.opScaled = false; // waiting for a flag, not computing
      k.queue.schedule(cpu.phaseEv, when);
    } else {
      waiter.opRemaining = Math.max(0, when - k.now);
    }
  }
}
