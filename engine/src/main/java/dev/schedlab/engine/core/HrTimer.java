package dev.schedlab.engine.core;

import dev.schedlab.api.TimerCallback;
import dev.schedlab.api.TimerHandle;
import dev.schedlab.engine.sim.Event;
import org.jspecify.annotations.Nullable;

/**
 * An hrtimer on one CPU's timer base: its expiry raises the timer interrupt there, and the handler
 * runs the callback (or wakes the sleeping task).
 *
 * <p>Models: {@code hrtimer_start_range_ns()}: a soft expiry and a hard one up to the slack later;
 * any timer interrupt on the CPU from the soft expiry on runs the timer early ({@code
 * __hrtimer_run_queues()}); a sleep timer moves with its task's CPU.
 *
 * <p>Does not model: the timer wheel (the model has no low-resolution timers), hrtimer bases other
 * than CLOCK_MONOTONIC, and soft (softirq-expiry) hrtimers.
 *
 * <p>Kernel reference: {@code kernel/time/hrtimer.c} ({@code hrtimer_start_range_ns}, {@code
 * __hrtimer_run_queues}, {@code hrtimer_interrupt}).
 */
final class HrTimer implements TimerHandle {
  final Kernel kernel;

  /** The CPU whose base holds the timer (a sleep timer moves with its task). */
  int cpu;

  final @Nullable TimerCallback callback;

  /** For task sleep timers: the task to wake; else null. */
  final @Nullable Task sleeper;

  final Event event;

  /**
   * The requested expiry ({@code _softexpires}); the event fires at the hard expiry, up to the
   * slack later. Any timer interrupt on the CPU from the soft expiry on runs the timer.
   */
  long softExpiry;

  /** The CPU whose base holds it ({@link Cpu#addTimer}), -1 when on none. */
  int baseCpu = -1;

  /** When it was put on the base, in the base's arming order (ties of equal expiry). */
  long baseSeq;

  /** Its neighbours on the base's list. */
  @Nullable HrTimer baseNext;

  @Nullable HrTimer basePrev;

  HrTimer(Kernel kernel, int cpu, @Nullable TimerCallback callback, @Nullable Task sleeper) {
    this.kernel = kernel;
    this.cpu = cpu;
    this.callback = callback;
    this.sleeper = sleeper;
    this.event = new Event(EventLoop.EV_HRTIMER, -1, this);
  }

  @Override
  public void arm(long expiresNs) {
    arm(expiresNs, 0);
  }

  /**
   * {@code hrtimer_start_range_ns()}: soft expiry {@code expiresNs}, hard one {@code slackNs}
   * later.
   */
  void arm(long expiresNs, long slackNs) {
    if (!event.scheduled()) {
      kernel.cpus[cpu].addTimer(this);
    }
    softExpiry = expiresNs;
    if (baseCpu >= 0) {
      kernel.cpus[baseCpu].softExpiryArmed(expiresNs);
    }
    kernel.queue.schedule(event, Math.max(expiresNs + slackNs, kernel.now));
  }

  @Override
  public void cancel() {
    if (event.scheduled()) {
      kernel.cpus[cpu].removeTimer(this);
      kernel.queue.cancel(event);
    }
  }

  @Override
  public boolean armed() {
    return event.scheduled();
  }
}
