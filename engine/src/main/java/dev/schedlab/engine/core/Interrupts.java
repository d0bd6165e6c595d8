package dev.schedlab.engine.core;

import dev.schedlab.api.CallFunction;
import dev.schedlab.api.IpiDelivery;
import dev.schedlab.api.IpiPath;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Hard interrupts, IPIs and cross-CPU calls (sections 1.3 and 1.12).
 *
 * <p>Models: interrupt delivery with IRQs-off latching; the handlers (tick, hrtimers, reschedule
 * and call-function vectors); IRQ exit with its preemption point ({@code EXIT_TO_USER} from user
 * mode, {@code IRQ_EXIT_KERNEL} from preemptible kernel code); the softirqs the handlers raise
 * (TIMER with the background, SCHED, RCU) run at IRQ exit; {@code smp_call_function_single()} with
 * the polling-idle shortcut ({@code set_nr_if_polling}), IPI delivery latency by socket distance,
 * and vectors that coalesce while one is pending.
 *
 * <p>The softirq loop ({@code handle_softirqs()}) restarts for softirqs raised again during a pass
 * within its time and restart limits and while no reschedule is pending, and otherwise wakes the
 * CPU's ksoftirqd, a fair kthread that runs them in its own non-preemptible passes.
 *
 * <p>Does not model: nested interrupts, softirqs run by {@code local_bh_enable()}, device
 * interrupts, and IRQ time accounting (interrupt time is charged to the interrupted task).
 *
 * <p>Kernel reference: {@code kernel/entry/common.c} ({@code irqentry_exit}, {@code
 * exit_to_user_mode_loop}), {@code kernel/softirq.c} ({@code irq_exit_rcu}, {@code
 * handle_softirqs}, {@code wakeup_softirqd}, {@code run_ksoftirqd}), {@code kernel/smp.c} ({@code
 * smp_call_function_single}, {@code generic_exec_single}), {@code kernel/sched/core.c} ({@code
 * send_call_function_single_ipi}); commit b2a02fc43a1f (the polling shortcut).
 */
final class Interrupts {
  private final Kernel k;
  private @Nullable Csd pool;
  private final MetricCounter[] ipiSent = new MetricCounter[IpiPath.values().length];
  private final MetricCounter[] ipiShortcut = new MetricCounter[IpiPath.values().length];
  private final MetricCounter ipiResched;
  private final MetricCounter ipiCall;
  private final MetricCounter csdCalls;

  /** Interrupts taken by vector, as /proc/interrupts counts them (LOC, RES, CAL). */
  private final MetricCounter takenTimer;

  private final MetricCounter takenResched;
  private final MetricCounter takenCall;

  /**
   * Per CPU, the vectors whose handlers the running IRQ traced: their exits are traced at IRQ exit.
   */
  private final int[] tracedVectors;

  /** Softirqs run, as /proc/softirqs counts them. */
  private final MetricCounter softirqSched;

  private final MetricCounter softirqRcu;

  /** Registered at the first ksoftirqd, so a run that needs none shows no such metric. */
  private @Nullable MetricCounter ksoftirqdWakeups;

  @SuppressWarnings("EnumOrdinal") // counters in dense arrays by IPI path, bumped on every IPI
  Interrupts(Kernel k) {
    this.k = k;
    softirqSched = k.metrics.counter("softirq.sched");
    softirqRcu = k.metrics.counter("softirq.rcu");
    for (IpiPath p : IpiPath.values()) {
      String n = p.name().toLowerCase(java.util.Locale.ROOT);
      ipiSent[p.ordinal()] = k.metrics.counter("ipi.sent." + n);
      ipiShortcut[p.ordinal()] = k.metrics.counter("ipi.polling_shortcut." + n);
    }
    ipiResched = k.metrics.counter("ipi.vector.resched");
    ipiCall = k.metrics.counter("ipi.vector.call_function");
    csdCalls = k.metrics.counter("csd.calls");
    takenTimer = k.metrics.counter("irq.taken.local_timer");
    takenResched = k.metrics.counter("irq.taken.resched");
    takenCall = k.metrics.counter("irq.taken.call_function");
    tracedVectors = new int[k.cpus.length];
  }

  /**
   * An interrupt {@code vector} arrives at {@code cpu}: taken now, after an idle exit, or latched.
   */
  void raise(Cpu cpu, int vector) {
    cpu.pendingIrqs |= vector;
    if (cpu.phase == Cpu.P_IDLE_STATE) {
      k.idleLoop.interrupt(cpu);
    } else if (cpu.irqsEnabled()) {
      take(cpu);
    }
  }

  /** Takes the pending interrupts if IRQs are on; returns whether it did. */
  boolean takePending(Cpu cpu) {
    if (cpu.pendingIrqs != 0 && cpu.irqsEnabled()) {
      take(cpu);
      return true;
    }
    return false;
  }

  /** Interrupts the current phase (saving its remaining time) and enters the IRQ. */
  void take(Cpu cpu) {
    cpu.savedPhase = cpu.phase;
    if (cpu.phase == Cpu.P_SPIN) {
      cpu.spinDone += k.now - cpu.phaseStart; // the stretch spun before this interrupt
    }
    if (cpu.phase == Cpu.P_TASK || cpu.phase == Cpu.P_SPIN) {
      cpu.savedRemaining = k.remainingWork(cpu);
    }
    enter(cpu);
  }

  /** Enters IRQ handling with {@code savedPhase} already recorded. */
  void enter(Cpu cpu) {
    k.setPhase(cpu, Cpu.P_IRQ_ENTRY, k.costs.p(Param.IRQ_ENTRY));
  }

  /**
   * {@code __hrtimer_run_queues()}: after the timers that fired, the ones whose soft expiry has
   * passed run too, in hard-expiry order, up to the first that has not (the tick included).
   */
  private void collectSoftExpired(Cpu cpu) {
    // The earliest timer's soft expiry decides, and it has not passed if none has.
    while (cpu.anySoftExpired(k.now)) {
      HrTimer t = Objects.requireNonNull(cpu.earliestTimer()); // a timer is armed
      if (t.softExpiry > k.now) {
        return;
      }
      if (cpu.tickEv.scheduled()
          && cpu.tickEv.time() > k.now
          && cpu.tickEv.time() < t.event.time()) {
        return; // the tick sorts first and is not due
      }
      t.cancel();
      cpu.expired.add(t);
    }
  }

  private void count(int vectors) {
    if ((vectors & Cpu.IRQ_TIMER) != 0) {
      takenTimer.value++;
    }
    if ((vectors & Cpu.IRQ_RESCHED) != 0) {
      takenResched.value++;
    }
    if ((vectors & Cpu.IRQ_CALL) != 0) {
      takenCall.value++;
    }
  }

  /** IRQ entry done: run the handlers of every pending vector; their cost extends the IRQ. */
  void runHandlers(Cpu cpu) {
    int vectors = cpu.pendingIrqs;
    cpu.pendingIrqs = 0;
    k.pathCost = 0;
    Task cur = cpu.curr;
    count(vectors);
    if ((vectors & Cpu.IRQ_TIMER) != 0) {
      if (k.trace.enabled()) {
        k.trace.irqEntry(k.now, cpu.id, cur.traceComm(), cur.tracePid(), 0, "timer");
      }
      if (cpu.tickDue) {
        cpu.tickDue = false;
        if (cur == cpu.idle) {
          cpu.gotIdleTick = true; // tick_sched_do_timer() in the idle loop
        }
        k.sched.tick(cpu);
        Background bg = k.background;
        if (bg != null) {
          bg.tick(cpu); // run_local_timers()
        }
        k.rcu.schedClockIrq(cpu);
      }
      collectSoftExpired(cpu);
      for (int i = 0; i < cpu.expired.size(); i++) {
        HrTimer t = cpu.expired.get(i);
        if (t.sleeper != null) {
          k.exec.timerHandled(t.sleeper);
          k.sched.wakeUp(t.sleeper, 0);
        } else {
          Objects.requireNonNull(t.callback).expired(cpu.id, k.now); // no sleeper: a callback
        }
      }
      cpu.expired.clear();
      k.pathCost +=
          k.costs.clockeventReprogramCost(); // hrtimer_interrupt(): program the next event
    }
    if ((vectors & Cpu.IRQ_RESCHED) != 0 && k.trace.enabled()) {
      k.trace.ipiEntry(k.now, cpu.id, cur.traceComm(), cur.tracePid(), "Rescheduling interrupts");
    }
    if ((vectors & Cpu.IRQ_CALL) != 0) {
      if (k.trace.enabled()) {
        k.trace.ipiEntry(
            k.now, cpu.id, cur.traceComm(), cur.tracePid(), "Function call interrupts");
      }
      flushCsd(cpu);
    }
    if (k.trace.enabled()) {
      tracedVectors[cpu.id] = vectors;
    }
    irqExitSoftirqs(cpu); // irq_exit(): softirqs raised by the handlers
    k.setPhase(cpu, Cpu.P_IRQ_BODY, k.pathCost + k.costs.p(Param.IRQ_EXIT));
  }

  /**
   * IRQ exit: more latched interrupts are handled at once; else resume with the preemption check.
   */
  void exit(Cpu cpu) {
    if (tracedVectors[cpu.id] != 0) {
      traceExits(cpu, tracedVectors[cpu.id]);
      tracedVectors[cpu.id] = 0;
    }
    if (cpu.pendingIrqs != 0) {
      enter(cpu);
      return;
    }
    if (cpu.irqSoftirqLoop && nextIrqSoftirqPass(cpu)) {
      return;
    }
    switch (cpu.savedPhase) {
      case Cpu.P_TASK -> k.exec.irqExitToTask(cpu);
      case Cpu.P_SPIN -> k.sched.spinWindow.resumeSpin(cpu);
      case Cpu.P_IDLE_STATE -> k.idleLoop.afterIrq(cpu);
      case Cpu.P_IDLE_TOP -> k.idleLoop.doIdleTop(cpu);
      default -> throw new IllegalStateException("IRQ exit to unexpected phase " + cpu.savedPhase);
    }
  }

  /** The exits of the handlers {@link #runHandlers} traced, in the order of their entries. */
  private void traceExits(Cpu cpu, int vectors) {
    Task cur = cpu.curr;
    if ((vectors & Cpu.IRQ_TIMER) != 0) {
      k.trace.irqExit(k.now, cpu.id, cur.traceComm(), cur.tracePid(), 0);
    }
    if ((vectors & Cpu.IRQ_RESCHED) != 0) {
      k.trace.ipiExit(k.now, cpu.id, cur.traceComm(), cur.tracePid(), "Rescheduling interrupts");
    }
    if ((vectors & Cpu.IRQ_CALL) != 0) {
      k.trace.ipiExit(k.now, cpu.id, cur.traceComm(), cur.tracePid(), "Function call interrupts");
    }
  }

  // ---------------- IPIs ----------------

  /** {@code smp_send_reschedule} / {@code arch_send_call_function_single_ipi} from {@code from}. */
  @SuppressWarnings("EnumOrdinal") // counters in dense arrays by IPI path, bumped on every IPI
  void sendIpi(Cpu from, Cpu target, int vector, IpiPath path) {
    k.pathCost += k.costs.p(Param.IPI_SEND) + (k.virtualized ? k.costs.p(Param.VM_IPI_EXIT) : 0);
    long latency =
        k.costs.jitter(
            from,
            from.pkgId == target.pkgId
                ? k.costs.p(Param.IPI_SAME_SOCKET)
                : k.costs.p(Param.IPI_CROSS_SOCKET));
    var ev = vector == Cpu.IRQ_RESCHED ? target.ipiResched : target.ipiCall;
    if (!ev.scheduled()) {
      k.queue.schedule(ev, k.now + k.signalDelay + latency);
    }
    ipiSent[path.ordinal()].value++;
    (vector == Cpu.IRQ_RESCHED ? ipiResched : ipiCall).value++;
    if (k.trace.enabled()) {
      Task cur = from.curr;
      k.trace.ipiSend(
          k.now,
          from.id,
          cur.traceComm(),
          cur.tracePid(),
          target.id,
          vector == Cpu.IRQ_RESCHED ? "resched" : "call_function_single");
    }
  }

  /** A flag write woke a polling CPU (no interrupt). */
  @SuppressWarnings("EnumOrdinal") // counters in dense arrays by IPI path, bumped on every IPI
  void pollingShortcut(Cpu target, IpiPath path) {
    ipiShortcut[path.ordinal()].value++;
    if (k.trace.enabled()) {
      Task cur = k.cpus[k.thisCpu].curr;
      k.trace.wakeIdleWithoutIpi(k.now, k.thisCpu, cur.traceComm(), cur.tracePid(), target.id);
    }
    if (target.phase == Cpu.P_IDLE_STATE) {
      k.idleLoop.wakeFromState(target, true, k.signalDelay);
    }
  }

  // ---------------- cross-CPU calls ----------------

  /**
   * Queues a CSD on {@code target}; the first entry of an empty queue needs an IPI or the shortcut.
   */
  void callFunction(
      Cpu from,
      Cpu target,
      long costNs,
      @Nullable CallFunction fn,
      @Nullable Task waiter,
      IpiPath path) {
    Csd c = obtain();
    c.path = path;
    c.costNs = costNs;
    c.fn = fn;
    c.waiter = waiter;
    enqueue(from, target, c);
  }

  /** Queues a remote wakeup on {@code target}'s wake list ({@code __ttwu_queue_wakelist}). */
  void queueWakeup(Cpu from, Cpu target, Task wakee) {
    Csd c = obtain();
    c.path = IpiPath.REMOTE_WAKEUP;
    c.wakee = wakee;
    target.ttwuPending = true;
    target.idleChanged();
    enqueue(from, target, c);
  }

  private void enqueue(Cpu from, Cpu target, Csd c) {
    csdCalls.value++;
    c.from = from;
    target.callQueueLine.wroteBy(from); // llist_add(); the sender's wait is in its own path
    boolean wasEmpty = target.csdHead == null;
    if (wasEmpty) {
      target.csdHead = c;
    } else {
      Objects.requireNonNull(target.csdTail).next = c; // a non-empty queue has a tail
    }
    target.csdTail = c;
    if (!wasEmpty) {
      return;
    }
    if (from == target) {
      // A CPU calling itself runs the function from its own pending-IRQ path.
      sendSelf(target);
      return;
    }
    boolean prepIpi = k.costs.on(Param.POLLING_IPI);
    IpiDelivery d = prepIpi ? k.ext.ipiPrepare().prepare(target) : IpiDelivery.REAL_IPI;
    Task idle = target.curr;
    if (prepIpi) {
      // call_function_single_prep_ipi() read rq->idle and the idle task's flags. The caller's
      // waits are in its own path (Op.CALL; cost.ttwu_local, the ILB kick); the try_cmpxchg()
      // below overlaps the sender's csd_lock_wait().
      target.rqIdleLine.readBy(from);
      target.idleFlagsLine.readBy(from);
    }
    if (d == IpiDelivery.POLLING_SHORTCUT && idle.polling) {
      idle.needResched = true; // set_nr_if_polling()
      target.idleFlagsLine.wroteBy(from);
      pollingShortcut(target, c.path);
    } else {
      sendIpi(from, target, Cpu.IRQ_CALL, c.path);
    }
  }

  private void sendSelf(Cpu cpu) {
    if (!cpu.ipiCall.scheduled()) {
      k.queue.schedule(cpu.ipiCall, k.now);
    }
  }

  /**
   * {@code flush_smp_call_function_queue()}: runs every queued CSD on {@code cpu} now, adding their
   * cost to {@link Kernel#pathCost}; a waiting sender sees its CSD unlocked when the function is
   * done. The queue head and a function call's CSD are lines the queuing CPUs wrote last ({@link
   * CacheLine}): {@code llist_del_all()} pulls the head, reading {@code csd->func} pulls the CSD,
   * and {@code csd_unlock()} of a waited-for call takes the CSD back from the spinning sender. (A
   * wake-list entry's task lines are in {@code cost.ttwu_local}.)
   */
  void flushCsd(Cpu cpu) {
    Csd c = cpu.csdHead;
    if (c != null) {
      k.pathCost += cpu.callQueueLine.write(cpu, this); // llist_del_all()
    }
    cpu.csdHead = null;
    cpu.csdTail = null;
    cpu.ttwuPending = false;
    cpu.idleChanged();
    while (c != null) {
      Csd next = c.next;
      k.pathCost += k.costs.p(Param.CSD_FN) + c.costNs + csdReadCost(cpu, c);
      if (c.wakee != null) {
        k.sched.activateQueued(cpu, c.wakee);
      }
      if (c.fn != null) {
        c.fn.run(cpu.id);
      }
      if (c.waiter != null) {
        // csd_unlock(), then the waiter's csd_lock_wait() reads the flag back.
        Cpu sender = k.cpus[c.waiter.cpu];
        k.pathCost += sender.syncCsdLine.write(cpu, this);
        k.exec.csdDone(c.waiter, k.now + k.pathCost + sender.syncCsdLine.read(sender, this));
      }
      release(c);
      c = next;
    }
  }

  /** Reading {@code csd->func}: the waiting sender's stack CSD, another caller's CSD, or none. */
  private long csdReadCost(Cpu cpu, Csd c) {
    if (c.wakee != null) {
      return 0;
    }
    return c.waiter != null
        ? k.cpus[c.waiter.cpu].syncCsdLine.read(cpu, this)
        : cacheline(cpu, c.from);
  }

  /** Latency of one line {@code c} no longer holds, fetched back from its last-level cache. */
  long llcFetch(Cpu c) {
    return k.costs.jitter(c, k.costs.p(Param.CACHELINE_SAME_LLC));
  }

  /** Latency of one cache-line transfer between {@code a} and {@code b}. */
  long cacheline(Cpu a, Cpu b) {
    if (a == b) {
      return 0;
    }
    return k.costs.jitter(
        a,
        a.llcId == b.llcId
            ? k.costs.p(Param.CACHELINE_SAME_LLC)
            : k.costs.p(Param.CACHELINE_CROSS_LLC));
  }

  private Csd obtain() {
    Csd c = pool;
    if (c == null) {
      return new Csd();
    }
    pool = c.next;
    c.next = null;
    return c;
  }

  private void release(Csd c) {
    c.fn = null;
    c.wakee = null;
    c.waiter = null;
    c.next = pool;
    pool = c;
  }

  /**
   * Softirqs outside an interrupt ({@code do_softirq()} after the idle loop's call-function flush):
   * {@code handle_softirqs()} with its restarts in one go. Cost to {@code pathCost}.
   */
  void runSoftirqs(Cpu cpu) {
    if (!cpu.servingSoftirq && !cpu.irqSoftirqLoop) {
      beginSoftirqs(cpu);
      softirqPass(cpu);
      while (restartSoftirqs(cpu)) {
        softirqPass(cpu);
      }
    }
  }

  /**
   * IRQ exit's {@code invoke_softirq()}: the first pass of {@code handle_softirqs()} (cost to
   * {@code pathCost}); when a softirq is raised again, {@link #exit} decides at the pass's end
   * whether to restart. Not when the interrupt came in a softirq pass ({@code in_interrupt()}):
   * that loop goes on after it.
   */
  private void irqExitSoftirqs(Cpu cpu) {
    if (cpu.servingSoftirq || cpu.irqSoftirqLoop) {
      return;
    }
    beginSoftirqs(cpu);
    softirqPass(cpu);
    cpu.irqSoftirqLoop = softirqPending(cpu);
  }

  /**
   * {@code handle_softirqs()} (kernel/softirq.c) between passes: softirqs raised again during a
   * pass (RCU_SOFTIRQ past its batch limit) restart the loop while jiffies is before its start plus
   * {@code MAX_SOFTIRQ_TIME}, {@code need_resched()} is clear and fewer than {@code
   * MAX_SOFTIRQ_RESTART} passes have run; otherwise ksoftirqd is woken for them. An interrupt that
   * came during a pass has been handled by then (it is latched to the pass's end: nested interrupts
   * are not modelled), so a wakeup it made counts.
   */
  private boolean restartSoftirqs(Cpu cpu) {
    if (!softirqPending(cpu)) {
      return false;
    }
    if (k.jiffies() < cpu.softirqEndJiffy && !cpu.curr.needResched && --cpu.softirqRestarts > 0) {
      return true;
    }
    wakeupSoftirqd(cpu);
    return false;
  }

  private void beginSoftirqs(Cpu cpu) {
    long maxTime = k.costs.p(Param.SOFTIRQ_MAX_TIME);
    cpu.softirqEndJiffy = k.jiffies() + Math.max(1, (maxTime + k.tickNs - 1) / k.tickNs);
    cpu.softirqRestarts = k.costs.p(Param.SOFTIRQ_MAX_RESTART);
  }

  /** IRQ exit with the softirq loop going on: its next pass, as more of the IRQ, or its end. */
  private boolean nextIrqSoftirqPass(Cpu cpu) {
    if (!restartSoftirqs(cpu)) {
      cpu.irqSoftirqLoop = false;
      return false;
    }
    k.pathCost = 0;
    softirqPass(cpu);
    cpu.irqSoftirqLoop = softirqPending(cpu);
    k.setPhase(cpu, Cpu.P_IRQ_BODY, k.pathCost);
    return true;
  }

  /** One pass: each raised softirq in vector order, as /proc/softirqs counts them. */
  private void softirqPass(Cpu cpu) {
    Background bg = k.background;
    if (bg != null) {
      bg.softirq(cpu); // TIMER_SOFTIRQ, ahead of SCHED and RCU
    }
    if (cpu.schedSoftirq) {
      cpu.schedSoftirq = false;
      softirqSched.value++;
      k.balancer.softirq(cpu);
    }
    if (k.rcu.takeSoftirq(cpu)) {
      softirqRcu.value++;
      k.rcu.core(cpu);
    }
  }

  /** {@code local_softirq_pending()}. */
  boolean softirqPending(Cpu cpu) {
    Background bg = k.background;
    return (bg != null && bg.raised(cpu)) || cpu.schedSoftirq || k.rcu.raised(cpu);
  }

  /** {@code wakeup_softirqd()}: the CPU's ksoftirqd (a fair kthread, nice 0) runs the rest. */
  private void wakeupSoftirqd(Cpu cpu) {
    Task t = cpu.ksoftirqd;
    if (t == null) {
      BitSet one = new BitSet();
      one.set(cpu.id);
      t = k.deferred.kthread("ksoftirqd/" + cpu.id, one, Op.KSOFTIRQD);
      cpu.ksoftirqd = t;
      ksoftirqdWakeups = k.metrics.counter("softirq.ksoftirqd_wakeups");
    }
    if (t.state != TaskState.RUNNING) {
      Objects.requireNonNull(ksoftirqdWakeups).value++;
      k.sched.wakeUp(t, 0);
    }
  }

  /**
   * {@code run_ksoftirqd()}: ksoftirqd starts {@code handle_softirqs()} in softirq context; returns
   * the first pass's cost, which the kthread runs non-preemptibly.
   */
  long ksoftirqdBegin(Cpu cpu) {
    cpu.servingSoftirq = true;
    beginSoftirqs(cpu);
    return ksoftirqdPass(cpu);
  }

  /** At the end of ksoftirqd's pass: the cost of the next one, or -1 when the loop ends. */
  long ksoftirqdNext(Cpu cpu) {
    if (restartSoftirqs(cpu)) {
      return ksoftirqdPass(cpu);
    }
    cpu.servingSoftirq = false; // ksoftirqd_run_end()
    return -1;
  }

  private long ksoftirqdPass(Cpu cpu) {
    long saved = k.pathCost;
    k.pathCost = 0;
    softirqPass(cpu);
    long cost = k.pathCost;
    k.pathCost = saved;
    return cost;
  }
}
