package dev.schedlab.engine.core;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.SchedMode;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.params.Param;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The idle task's loop, {@code do_idle()}.
 *
 * <p>Models: polling flag handling, the governor's state choice and tick stop, hardware idle states
 * with their exit latencies, and the loop exit that flushes queued cross-CPU calls and calls {@code
 * schedule_idle()}. POLLING is set from the top of {@code do_idle()} until the loop exits, except
 * from {@code call_cpuidle()} until the state's entry sets it again (MWAIT, POLL; HLT never does)
 * and from the state's return until {@code cpuidle_idle_call()} is back in the loop (MWAIT and
 * HLT), as in the kernel; while it is set a cross-CPU call or resched needs no IPI. An interrupt
 * pending at the entry does not cancel it (MWAIT and HLT return at once, the governor reflects a
 * zero residency); NEED_RESCHED does.
 *
 * <p>Does not model: timer-wheel timers other than the host background's in the tick-stop decision
 * ({@code tick_nohz_next_event()} sees those and RCU's callbacks), cpuidle's s2idle and the arch
 * idle fallbacks other than HLT.
 *
 * <p>Kernel reference: {@code kernel/sched/idle.c} ({@code do_idle}, {@code cpuidle_idle_call},
 * {@code call_cpuidle}), {@code drivers/cpuidle/cpuidle.c} ({@code cpuidle_enter_state}, {@code
 * cpuidle_reflect}), {@code drivers/cpuidle/poll_state.c}, {@code kernel/time/tick-sched.c}.
 */
final class IdleLoop {
  private final Kernel k;
  private final MetricCounter[] entries;
  private final MetricCounter tickStops;
  private final MetricCounter idleExits;
  private final MetricCounter entriesIrqPending;

  /** {@code CPUIDLE_POLL_MIN}, drivers/cpuidle/cpuidle.c. */
  private static final long POLL_MIN_NS = 10_000;

  /**
   * How long state 0 busy-loops before the governor chooses again ({@link #pollLimitNs}), unless
   * the governor keeps its own limit ({@code IdlePolicy.pollTimeLimitNs}).
   */
  private final long pollLimitNs;

  /** The idle policy (cpuidle governor) choosing the state. */
  private final IdlePolicy governor;

  /** The PM QoS CPU latency limit the governor must respect. */
  private final long latencyLimitNs;

  /** The host's halt polling of this guest's vCPUs; null on bare metal. */
  private final @Nullable HaltPolling haltPolling;

  IdleLoop(Kernel k, IdlePolicy governor, long latencyLimitNs) {
    this.k = k;
    this.governor = governor;
    this.latencyLimitNs = latencyLimitNs;
    this.haltPolling = k.virtualized ? new HaltPolling(k) : null; // a host's, so guests only
    entries = new MetricCounter[k.idleStates.size()];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = k.metrics.counter("idle.entries." + k.idleStates.get(i).name());
    }
    tickStops = k.metrics.counter("tick.stops");
    idleExits = k.metrics.counter("idle.loop_exits");
    entriesIrqPending = k.metrics.counter("idle.entries_irq_pending");
    pollLimitNs = pollLimitNs(); // fixed for the run, as the kernel caches dev->poll_limit_ns
  }

  /** The idle task starts running after a switch (IRQs on: latched interrupts go first). */
  void startIdle(Cpu cpu) {
    if (cpu.pendingIrqs != 0) {
      cpu.savedPhase = Cpu.P_IDLE_TOP;
      k.irqs.enter(cpu);
      return;
    }
    doIdleTop(cpu);
  }

  /** Top of {@code do_idle()}: set POLLING, then the entry path with IRQs off. */
  void doIdleTop(Cpu cpu) {
    Task idle = cpu.curr;
    k.pathCost = 0;
    k.nohz.idleTop(cpu); // nohz_run_idle_balance(), IRQs on, before polling is set
    long idleTopCost = k.pathCost + cpu.idleFlagsLine.write(cpu, k.irqs); // __current_set_polling()
    idle.polling = true;
    if (idle.needResched) {
      loopExit(cpu);
      return;
    }
    cpu.opIrqsOff = true;
    k.setPhase(cpu, Cpu.P_IDLE_ENTER, idleTopCost + k.costs.p(Param.DO_IDLE_ENTER));
  }

  /**
   * Governor done: stop the tick if asked, then enter the chosen state (or leave the loop). The
   * tick stop is a phase of its own; the state chosen before it is entered after it. So is the way
   * into the state ({@code call_cpuidle()} to the state's own entry), with POLLING clear.
   */
  void enterState(Cpu cpu) {
    Task idle = cpu.curr;
    if (cpu.enteringState >= 0) {
      int idx = cpu.enteringState;
      cpu.enteringState = -1;
      startState(cpu, idx);
      return;
    }
    if (idle.needResched) {
      cpu.selectedState = -1;
      loopExit(cpu); // call_cpuidle(): -EBUSY, nothing to reflect
      return;
    }
    long sleepLength = nextHrTimerNs(cpu);
    int idx = cpu.selectedState;
    cpu.selectedState = -1;
    long reprogramCost = 0;
    if (idx < 0) {
      long tickDelta = cpu.tickEv.scheduled() ? cpu.tickEv.time() - k.now : Long.MAX_VALUE;
      // Without a cpuidle driver (HLT only) there is no governor: default_idle_call() always
      // tries to stop the tick. tick_nohz_next_event() keeps it while this CPU has RCU callbacks
      // (rcu_needs_cpu()); otherwise it keeps it only for a timer-wheel event within a tick:
      // with high-resolution timers, hrtimers (sleeps, cyclictest) are programmed on their own
      // and do not keep the tick (hrtimer_get_next_event() returns KTIME_MAX). The model's only
      // timer-wheel timers are the host background's (Background), for which the stopped tick
      // is programmed, so without callbacks the tick stops whenever the governor (if any) says
      // so. A stopped tick is reprogrammed on every pass (cpuidle_idle_call() calls
      // tick_nohz_idle_stop_tick() whenever the tick is stopped).
      boolean driver = k.idleStates.size() > 1 || k.idleStates.get(0).polling();
      idx = driver ? governor.select(cpu, sleepLength, tickDelta, latencyLimitNs) : 0;
      if (cpu.tickStopped) {
        reprogramCost = reprogramStoppedTick(cpu);
      } else if (!k.rcu.needsCpu(cpu) && (!driver || governor.stopTick(cpu, idx, sleepLength))) {
        stopTick(cpu, idx);
        return;
      }
    }
    // call_cpuidle(): current_clr_polling_and_test(), then cpuidle_enter_state() (or
    // default_idle_call()) up to the state's entry: a call in this window needs a real IPI.
    idle.polling = false;
    cpu.enteringState = idx;
    k.setPhase(
        cpu,
        Cpu.P_IDLE_ENTER,
        reprogramCost + k.costs.p(Param.CPUIDLE_ENTER) + cpu.idleFlagsLine.write(cpu, k.irqs));
  }

  /**
   * {@code tick_nohz_stop_tick()} with the tick already stopped: programmed for the next
   * timer-wheel timer, or the next jiffy while the CPU has RCU callbacks ({@code
   * tick_nohz_next_event()}); returns the clockevent's reprogramming cost.
   */
  private long reprogramStoppedTick(Cpu cpu) {
    long at = Long.MAX_VALUE;
    Background bg = k.background;
    if (bg != null) {
      at = bg.nextTimerTickNs(cpu);
    }
    if (k.rcu.needsCpu(cpu)) {
      at = Math.min(at, k.nextTickBoundary());
    }
    if (at == Long.MAX_VALUE) {
      long cost = k.costs.clockeventCancelCost(cpu, cpu.tickEv);
      k.queue.cancel(cpu.tickEv);
      return cost;
    }
    if (cpu.tickEv.scheduled() && cpu.tickEv.time() == at) {
      return 0; // the same expiry: nothing to reprogram
    }
    long cost = k.costs.clockeventReprogramCost(cpu, at);
    k.queue.schedule(cpu.tickEv, at);
    return cost;
  }

  /**
   * The state's own entry: MWAIT and POLL set POLLING again ({@code
   * current_set_polling_and_test()}) and return at once if NEED_RESCHED came meanwhile (a remote
   * resched then also sent an IPI); HLT leaves POLLING clear and halts until that IPI. A busy loop
   * enables IRQs first, so an interrupt that arrived on the way in is taken inside it, and the loop
   * goes on after it.
   */
  private void startState(Cpu cpu, int idx) {
    IdleState s = k.idleStates.get(idx);
    boolean irqPending = cpu.pendingIrqs != 0;
    if (irqPending && !s.busyLoop()) {
      enterWithIrqPending(cpu, idx);
      return;
    }
    if (!irqPending && s.polling() && cpu.curr.needResched) {
      entries[idx].value++;
      reflect(cpu, idx, 0);
      loopExit(cpu);
      return;
    }
    cpu.curr.polling = s.polling();
    cpu.idleFlagsLine.wroteBy(cpu); // a wait for the line here would only delay the sleep
    long sleepLength = nextHrTimerNs(cpu);
    entries[idx].value++;
    cpu.idleStateIdx = idx;
    cpu.idleEnteredAt = k.now;
    cpu.idleAccountedAt = k.now;
    cpu.sleepLengthAtEntry = sleepLength;
    cpu.opIrqsOff = false;
    if (k.trace.enabled()) {
      k.trace.cpuIdle(k.now, cpu.id, "<idle>", 0, idx);
    }
    cpu.pollDeadline =
        idx == 0 && s.busyLoop() ? k.now + governor.pollTimeLimitNs(cpu, pollLimitNs) : -1;
    k.setPhase(cpu, Cpu.P_IDLE_STATE, pollTimeLeft(cpu));
    if (irqPending) {
      entriesIrqPending.value++;
      interrupt(cpu);
    }
  }

  /**
   * An interrupt arrives while the CPU is in an idle state. A busy loop ({@code poll_idle()},
   * snooze) runs with IRQs on and takes it in place, then polls on ({@link #afterIrq}); any other
   * state is left first.
   */
  void interrupt(Cpu cpu) {
    if (!k.idleStates.get(cpu.idleStateIdx).busyLoop()) {
      wakeFromState(cpu, false);
      return;
    }
    // The residency runs on through the handler: cpuidle_enter_state() times the state from its
    // entry to its exit, and poll_idle() took the interrupt inside it (as the cpu_idle events do).
    cpu.savedPhase = Cpu.P_IDLE_STATE;
    k.irqs.enter(cpu);
  }

  /** Back from an interrupt taken inside a busy loop: leave it on NEED_RESCHED, else poll on. */
  private void resumeBusyLoop(Cpu cpu) {
    if (cpu.curr.needResched) {
      leaveState(cpu, false, false, 0); // the loop sees need_resched() and returns
      cpu.opIrqsOff = true;
      k.setPhase(cpu, Cpu.P_IDLE_WAKE, k.costs.p(Param.CPUIDLE_EXIT));
      return;
    }
    k.setPhase(cpu, Cpu.P_IDLE_STATE, pollTimeLeft(cpu));
  }

  /** Time left until the busy loop's limit, or -1 for a state without one. */
  private long pollTimeLeft(Cpu cpu) {
    return cpu.pollDeadline < 0 ? -1 : Math.max(0, cpu.pollDeadline - k.now);
  }

  /** {@code tick_nohz_idle_stop_tick()} before the chosen state is entered. */
  private void stopTick(Cpu cpu, int chosenState) {
    cpu.tickStopped = true;
    cpu.selectedState = chosenState;
    // Cancelling the tick reprograms the clockevent only if the tick was the next event.
    long reprogram = k.costs.clockeventCancelCost(cpu, cpu.tickEv);
    k.queue.cancel(cpu.tickEv);
    Background bg = k.background;
    if (bg != null) {
      bg.programStoppedTick(cpu); // tick_nohz_stop_tick(): the next timer-wheel timer
    }
    tickStops.value++;
    k.nohz.tickStopped(cpu); // tick_nohz_idle_stop_tick() -> nohz_balance_enter_idle()
    k.setPhase(cpu, Cpu.P_IDLE_ENTER, k.costs.p(Param.TICK_STOP) + reprogram);
  }

  /**
   * An interrupt arrived while IRQs were off on the way into MWAIT or HLT. The state is still
   * entered, and returns at once on the pending interrupt. The governor reflects a residency of
   * about zero ({@code cpuidle_reflect()}), so a run of such entries teaches it that the CPU does
   * not stay idle. As after any wake, an IRQ-enabled state takes the interrupt first (still
   * polling; its residency then is the handler's time) and does the exit bookkeeping after it; the
   * others do the bookkeeping first.
   */
  private void enterWithIrqPending(Cpu cpu, int idx) {
    entries[idx].value++;
    entriesIrqPending.value++;
    if (k.idleStates.get(idx).irqEnable()) {
      cpu.curr.polling = true; // current_set_polling_and_test(), then sti; mwait
      cpu.exitBookkeepingPending = true;
      cpu.reflectPendingIdx = idx;
      cpu.idleEnteredAt = k.now;
      cpu.savedPhase = Cpu.P_IDLE_STATE;
      k.irqs.enter(cpu);
      return;
    }
    reflect(cpu, idx, 0);
    cpu.opIrqsOff = true;
    k.setPhase(
        cpu, Cpu.P_IDLE_WAKE, k.costs.p(Param.CPUIDLE_EXIT)); // then woke() takes the interrupt
  }

  /** {@code cpuidle_reflect()}. {@code tick_nohz_idle_got_tick()} is read there and cleared. */
  private void reflect(Cpu cpu, int idx, long residencyNs) {
    reflect(cpu, idx, residencyNs, false);
  }

  private void reflect(Cpu cpu, int idx, long residencyNs, boolean pollTimeLimit) {
    governor.reflect(cpu, idx, residencyNs, pollTimeLimit);
    cpu.gotIdleTick = false;
  }

  /**
   * How long state 0 busy-loops before the governor chooses again. {@code poll_idle()} ({@code
   * CPUIDLE_FLAG_POLLING}) uses {@code cpuidle_poll_time()} (v5.11+, 7a5bd1279b7b): the target
   * residency of the first enabled deeper state of at least {@code CPUIDLE_POLL_MIN} (10 us),
   * capped at {@code CPUIDLE_POLL_MAX} (a sixteenth of a tick). A snooze loop without the flag
   * (powernv) polls for the next enabled state's target residency, else a tick.
   */
  private long pollLimitNs() {
    boolean pollIdle = k.idleStates.get(0).flagPolling();
    long pollMax = k.tickNs / 16;
    for (int i = 1; i < k.idleStates.size(); i++) {
      IdleState s = k.idleStates.get(i);
      if (!s.enabled()) {
        continue;
      }
      if (!pollIdle) {
        return Math.max(s.targetResidencyNs(), 1);
      }
      if (s.targetResidencyNs() >= POLL_MIN_NS) {
        return Math.min(s.targetResidencyNs(), pollMax);
      }
    }
    return pollIdle ? pollMax : k.tickNs;
  }

  private long nextHrTimerNs(Cpu cpu) {
    long next = cpu.nextTimerNs();
    Background bg = k.background;
    if (bg != null) {
      next = Math.min(next, bg.nextTimerTickNs(cpu)); // tick_nohz_get_sleep_length()
    }
    if (k.rcu.needsCpu(cpu)) {
      // tick_nohz_next_event() keeps the tick: the sleep length ends at the next one
      long tick = cpu.tickEv.scheduled() ? cpu.tickEv.time() : k.nextTickBoundary();
      next = Math.min(next, tick);
    }
    return next == Long.MAX_VALUE ? Long.MAX_VALUE : next - k.now;
  }

  /** Splits the host's per-vCPU wake-latency streams from the scenario's seed (guests only). */
  void seedHostWakes(long seed) {
    if (haltPolling != null) {
      haltPolling.seed(seed);
    }
  }

  /** Something woke the CPU in its idle state: spend the exit latency first. */
  void wakeFromState(Cpu cpu, boolean pollingWake) {
    wakeFromState(cpu, pollingWake, 0);
  }

  /** As above, with the waking write made {@code writeDelay} from now (it stays in its state). */
  void wakeFromState(Cpu cpu, boolean pollingWake, long writeDelay) {
    IdleState s = k.idleStates.get(cpu.idleStateIdx);
    long latency = writeDelay;
    if (pollingWake && s.busyLoop()) {
      latency += k.costs.p(Param.POLL_WAKE); // the poll loop's re-read of the written flags
      cpu.idleFlagsLine.readBy(cpu);
    } else {
      latency += s.exitLatencyNs();
      if (pollingWake) {
        latency += cpu.idleFlagsLine.read(cpu, k.irqs); // MWAIT woke on the write: read it
      }
      if (k.virtualized && !s.polling()) {
        latency += Objects.requireNonNull(haltPolling).wake(cpu, k.now - cpu.idleEnteredAt);
      }
    }
    // intel_idle_irq(): an interrupt is taken as soon as MWAIT wakes, still polling; the exit
    // bookkeeping follows the handler.
    boolean irqInside = !pollingWake && s.irqEnable();
    leaveState(cpu, false, irqInside, latency);
    if (irqInside) {
      cpu.curr.polling = true;
      cpu.exitBookkeepingPending = true;
    }
    cpu.opIrqsOff = true;
    // The hardware exit latency, then cpuidle_enter_state()'s exit bookkeeping.
    k.setPhase(cpu, Cpu.P_IDLE_WAKE, latency + (irqInside ? 0 : k.costs.p(Param.CPUIDLE_EXIT)));
  }

  /** After an interrupt taken inside the state: MWAIT returns, then the exit bookkeeping. */
  private void finishExit(Cpu cpu) {
    cpu.exitBookkeepingPending = false;
    if (cpu.reflectPendingIdx >= 0) {
      // The enter callback returns only now, after the handler: that is in the residency.
      reflect(cpu, cpu.reflectPendingIdx, k.now - cpu.idleEnteredAt);
      cpu.reflectPendingIdx = -1;
    }
    cpu.curr.polling = false; // current_clr_polling()
    cpu.opIrqsOff = true;
    k.setPhase(cpu, Cpu.P_IDLE_WAKE, k.costs.p(Param.CPUIDLE_EXIT));
  }

  /**
   * The CPU leaves its state. The residency the governor learns runs to the return of the enter
   * callback: after the exit latency {@code exitNs}, or after the handler of an interrupt taken
   * inside the state ({@code handlerInside}: reflected then, by {@link #finishExit}).
   */
  private void leaveState(Cpu cpu, boolean pollTimeLimit, boolean handlerInside, long exitNs) {
    long residency = k.now + exitNs - cpu.idleEnteredAt;
    closeResidency(cpu);
    if (pollTimeLimit) {
      // menu_update(): a poll state left on its time limit says the CPU could have idled until
      // the next timer event.
      residency = Math.min(cpu.sleepLengthAtEntry, Long.MAX_VALUE / 16);
    }
    if (k.trace.enabled()) {
      k.trace.cpuIdle(k.now, cpu.id, "<idle>", 0, -1);
    }
    IdleState s = k.idleStates.get(cpu.idleStateIdx);
    if (handlerInside) {
      cpu.reflectPendingIdx = cpu.idleStateIdx;
    } else {
      reflect(cpu, cpu.idleStateIdx, residency, pollTimeLimit);
    }
    cpu.idleStateIdx = -1;
    // poll_idle() takes interrupts inside its loop, with POLLING set; after MWAIT or HLT it is
    // clear until cpuidle_idle_call() returns.
    cpu.curr.polling = s.busyLoop();
  }

  /** Adds the idle residency so far to the CPU's total. */
  void closeResidency(Cpu cpu) {
    if (cpu.idleStateIdx >= 0) {
      cpu.idleNs += k.now - cpu.idleAccountedAt;
      cpu.idleAccountedAt = k.now;
    }
  }

  /**
   * The state's exit latency and {@code cpuidle_enter_state()}'s bookkeeping passed. MWAIT cleared
   * POLLING on the way out ({@code current_clr_polling()}); {@code cpuidle_idle_call()} sets it
   * again on its way back to the loop, after any interrupt was handled.
   */
  void woke(Cpu cpu) {
    if (cpu.pendingIrqs != 0) {
      cpu.savedPhase = Cpu.P_IDLE_STATE;
      k.irqs.enter(cpu);
    } else {
      backInLoop(cpu);
    }
  }

  /** POLL reached its time limit: the governor chooses again. */
  void pollTimeout(Cpu cpu) {
    leaveState(cpu, true, false, 0);
    cpu.curr.polling = true; // __current_set_polling() in cpuidle_idle_call()
    cpu.opIrqsOff = true;
    k.setPhase(
        cpu, Cpu.P_IDLE_ENTER, k.costs.p(Param.CPUIDLE_EXIT) + k.costs.p(Param.IDLE_RESELECT));
  }

  /** IRQ exit back into the idle loop. */
  void afterIrq(Cpu cpu) {
    if (cpu.idleStateIdx >= 0) {
      resumeBusyLoop(cpu);
    } else {
      backInLoop(cpu);
    }
  }

  /** Out of the state: the exit bookkeeping if still due, then leave the loop or choose again. */
  private void backInLoop(Cpu cpu) {
    if (cpu.exitBookkeepingPending) {
      finishExit(cpu);
    } else if (cpu.curr.needResched) {
      loopExit(cpu);
    } else {
      reselect(cpu);
    }
  }

  private void reselect(Cpu cpu) {
    cpu.curr.polling = true; // __current_set_polling() in cpuidle_idle_call()
    cpu.opIrqsOff = true;
    k.setPhase(
        cpu,
        Cpu.P_IDLE_ENTER,
        k.costs.p(Param.IDLE_RESELECT) + cpu.idleFlagsLine.write(cpu, k.irqs));
  }

  /**
   * {@code need_resched()}: leave the loop. POLLING is cleared ({@code __current_clr_polling}), the
   * tick restarts if it was stopped, and IRQs stay off until {@code schedule_idle()} is done.
   */
  private void loopExit(Cpu cpu) {
    idleExits.value++;
    cpu.curr.polling = false;
    // need_resched() read, __current_clr_polling() write
    long cost =
        k.costs.p(Param.DO_IDLE_EXIT)
            + cpu.idleFlagsLine.read(cpu, k.irqs)
            + cpu.idleFlagsLine.write(cpu, k.irqs);
    if (cpu.tickStopped) {
      cpu.tickStopped = false;
      long boundary = k.nextTickBoundary();
      cost += k.costs.p(Param.TICK_RESTART) + k.costs.clockeventReprogramCost(cpu, boundary);
      k.queue.schedule(cpu.tickEv, boundary);
    }
    cpu.opIrqsOff = true;
    k.setPhase(cpu, Cpu.P_IDLE_EXIT, cost);
  }

  /** {@code flush_smp_call_function_queue()} then {@code schedule_idle()}. */
  void loopExited(Cpu cpu) {
    k.pathCost = 0;
    k.irqs.flushCsd(cpu);
    k.irqs.runSoftirqs(cpu); // do_softirq_post_smp_call_flush()
    long flushCost = k.pathCost;
    k.sched.schedule(cpu, SchedMode.IDLE, flushCost);
  }
}
