package dev.schedlab.engine.core;

import dev.schedlab.engine.sim.Event;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The event loop: takes the kernel's future events in time order (ties in scheduling order), folds
 * each into the run's digest, and hands it to the mechanism that owns it: a CPU's phase end, a
 * tick, an hrtimer, an IPI, host noise, deferred work, RCU's quiescent-state forcing, a task's
 * start.
 */
final class EventLoop {
  static final int EV_PHASE = 1;
  static final int EV_TICK = 2;
  static final int EV_HRTIMER = 3;
  static final int EV_IPI_RESCHED = 4;
  static final int EV_IPI_CALL = 5;
  static final int EV_TASK_START = 6;
  static final int EV_WORK_DUE = 7;
  static final int EV_NOISE = 8;
  static final int EV_RCU_GP_KTHREAD = 10;
  static final int EV_RESCHED_WRITE = 11;

  /** The plugin watchdog: outside the model, not in the digest. */
  static final int EV_WATCHDOG = 9;

  private final Kernel k;

  /**
   * Steal and firmware stalls, and a guest's timer exits, ahead of the events; set by the builder.
   */
  @SuppressWarnings("NullAway.Init")
  HostInterference host;

  /** The plugin watchdog, or null (no plugins, or watchdog.timeout 0). */
  @Nullable Watchdog watchdog;

  private long digest = 0x9E3779B97F4A7C15L;
  private long events;

  EventLoop(Kernel k) {
    this.k = k;
  }

  /** Runs events until {@code endNs}; returns the number processed. */
  long run(long endNs) {
    Event e;
    while ((e = k.queue.pollUntil(endNs)) != null) {
      k.now = e.time();
      if (e.type == EV_WATCHDOG) {
        // Outside the model: neither in the digest nor in the event count.
        Objects.requireNonNull(watchdog).run(); // EV_WATCHDOG is armed only with a watchdog
        continue;
      }
      events++;
      digest = mix(digest, k.now, e.type, e.cpu);
      dispatch(e);
      if (k.liveTasks == 0) {
        // Every task has exited: nothing but idle ticks can follow.
        return events;
      }
    }
    k.now = endNs;
    return events;
  }

  private void dispatch(Event e) {
    switch (e.type) {
      case EV_PHASE -> {
        k.thisCpu = e.cpu;
        phaseDone(k.cpus[e.cpu]);
      }
      case EV_TICK -> {
        k.thisCpu = e.cpu;
        if (!host.defer(k.cpus[e.cpu], e, true)) {
          k.cpus[e.cpu].tickDue = true;
          k.irqs.raise(k.cpus[e.cpu], Cpu.IRQ_TIMER);
        }
      }
      case EV_HRTIMER -> {
        HrTimer t = (HrTimer) Objects.requireNonNull(e.owner);
        k.thisCpu = t.cpu;
        Cpu c = k.cpus[t.cpu];
        if (!host.defer(c, e, true)) {
          c.removeTimer(t);
          c.expired.add(t);
          k.irqs.raise(c, Cpu.IRQ_TIMER);
        }
      }
      case EV_IPI_RESCHED -> {
        k.thisCpu = e.cpu;
        if (!host.defer(k.cpus[e.cpu], e, false)) {
          k.irqs.raise(k.cpus[e.cpu], Cpu.IRQ_RESCHED);
        }
      }
      case EV_IPI_CALL -> {
        k.thisCpu = e.cpu;
        if (!host.defer(k.cpus[e.cpu], e, false)) {
          k.irqs.raise(k.cpus[e.cpu], Cpu.IRQ_CALL);
        }
      }
      case EV_RCU_GP_KTHREAD -> k.rcu.kthread();
      case EV_RESCHED_WRITE -> k.sched.reschedWritten(k.cpus[e.cpu]);
      case EV_NOISE -> {
        k.thisCpu = e.cpu;
        host.noise(k.cpus[e.cpu]);
      }
      case EV_WORK_DUE -> {
        WorkItem w = (WorkItem) Objects.requireNonNull(e.owner);
        k.thisCpu = w.cpu;
        k.deferred.due(w);
      }
      case EV_TASK_START -> {
        Task task = (Task) Objects.requireNonNull(e.owner);
        k.thisCpu = task.cpu;
        if (!task.startAsleep || !k.exec.startAsleep(task)) {
          k.sched.wakeUpNewTask(task);
          if (task.startRunning) {
            k.cpus[task.cpu].startCurr = task; // the first pick there takes it
          }
        }
      }
      default -> throw new IllegalStateException("unknown event type " + e.type);
    }
  }

  private void phaseDone(Cpu cpu) {
    switch (cpu.phase) {
      case Cpu.P_TASK -> k.exec.opDone(cpu);
      case Cpu.P_SCHED -> k.sched.finish(cpu);
      case Cpu.P_IDLE_ENTER -> k.idleLoop.enterState(cpu);
      case Cpu.P_IDLE_STATE -> k.idleLoop.pollTimeout(cpu);
      case Cpu.P_IDLE_WAKE -> k.idleLoop.woke(cpu);
      case Cpu.P_IDLE_EXIT -> k.idleLoop.loopExited(cpu);
      case Cpu.P_IRQ_ENTRY -> k.irqs.runHandlers(cpu);
      case Cpu.P_IRQ_BODY -> k.irqs.exit(cpu);
      case Cpu.P_SPIN -> k.sched.spinWindow.spinTimeout(cpu);
      default ->
          throw new IllegalStateException("cpu " + cpu.id + " in unknown phase " + cpu.phase);
    }
  }

  static long mix(long h, long a, long b, long c) {
    h ^= a * 0xff51afd7ed558ccdL;
    h = Long.rotateLeft(h, 29) * 0xc4ceb9fe1a85ec53L;
    h ^= (b << 32) ^ (c & 0xffffffffL);
    h = Long.rotateLeft(h, 31) * 0x9E3779B97F4A7C15L;
    return h;
  }

  /** Hex digest of the event stream so far. */
  String digest() {
    long h = digest;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return String.format("%016x", h);
  }

  long events() {
    return events;
  }
}
