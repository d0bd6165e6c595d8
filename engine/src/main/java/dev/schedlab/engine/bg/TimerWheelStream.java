package dev.schedlab.engine.bg;

import java.util.SplittableRandom;

/**
 * One CPU's background timer-wheel timers: two Poisson streams of expiries, the non-deferrable ones
 * (which an idle CPU must wake for) and the deferrable ones (which wait for a tick that comes
 * anyway), and for each expiry what its callback queues.
 *
 * <p>Models: {@code timer_list} timers as arrivals at a measured rate per CPU; an expiry is due at
 * its time and runs at the first tick from then on ({@code run_local_timers()} raises TIMER_SOFTIRQ
 * when the wheel's {@code next_expiry} has passed); {@code TIMER_DEFERRABLE} timers live on their
 * own base, which {@code get_next_timer_interrupt()} leaves out for an idle CPU; each callback may
 * queue a work item on the CPU's kworker and call_rcu() some callbacks.
 *
 * <p>Does not model: which subsystem owns a timer, the wheel's levels and their granularity (an
 * expiry runs at the first tick at or after its due time), timer migration to a busy CPU ({@code
 * timer_migration}, off for the per-CPU timers that dominate an idle system).
 *
 * <p>Kernel reference: {@code kernel/time/timer.c} ({@code run_local_timers}, {@code __run_timers},
 * {@code get_next_timer_interrupt}, {@code BASE_DEF}), {@code kernel/workqueue.c} ({@code
 * delayed_work_timer_fn}).
 *
 * <p>Every draw comes from the CPU's own stream, in the order of its expiries, so a run whose
 * workload or plugin changes the timing still sees the same background (common random numbers).
 */
public final class TimerWheelStream {
  private final StreamOf hard;
  private final StreamOf deferrable;
  private final double kworkerShare;
  private final double rcuPerExpiry;

  /** Expiries taken by the last {@link #expire}: work items and RCU callbacks to queue. */
  private int works;

  private int rcuCallbacks;

  /** A CPU's stream with {@code rates}, split from {@code seed}. */
  public TimerWheelStream(BackgroundRates rates, SplittableRandom seed) {
    double hardRate = rates.timersPerSecond() * (1 - rates.deferrableShare());
    double defRate = rates.timersPerSecond() * rates.deferrableShare();
    this.hard = new StreamOf(hardRate, seed.split());
    this.deferrable = new StreamOf(defRate, seed.split());
    this.kworkerShare = rates.kworkerShare();
    this.rcuPerExpiry = rates.rcuCallbacksPerExpiry();
  }

  /** When the next timer an idle CPU must wake for is due, ns; {@link Long#MAX_VALUE} for none. */
  public long nextHardNs() {
    return hard.next;
  }

  /**
   * Whether any timer (deferrable ones too) is due at {@code nowNs}: the tick raises the softirq.
   */
  public boolean due(long nowNs) {
    return hard.next <= nowNs || deferrable.next <= nowNs;
  }

  /**
   * TIMER_SOFTIRQ at {@code nowNs}: expires every timer due by then and returns how many; {@link
   * #works()} and {@link #rcuCallbacks()} say what their callbacks queued.
   */
  public int expire(long nowNs) {
    works = 0;
    rcuCallbacks = 0;
    return expire(hard, nowNs) + expire(deferrable, nowNs);
  }

  private int expire(StreamOf s, long nowNs) {
    int n = 0;
    while (s.next <= nowNs) {
      n++;
      if (kworkerShare > 0 && s.rng.nextDouble() < kworkerShare) {
        works++;
      }
      if (rcuPerExpiry > 0) {
        int whole = (int) rcuPerExpiry;
        rcuCallbacks += whole + (s.rng.nextDouble() < rcuPerExpiry - whole ? 1 : 0);
      }
      s.advance();
    }
    return n;
  }

  /** Work items the callbacks of the last {@link #expire} queued on the CPU's kworker. */
  public int works() {
    return works;
  }

  /** RCU callbacks the callbacks of the last {@link #expire} queued. */
  public int rcuCallbacks() {
    return rcuCallbacks;
  }

  /** One Poisson stream of expiries. */
  private static final class StreamOf {
    final SplittableRandom rng;
    final double meanGapNs;
    long next;

    StreamOf(double ratePerSecond, SplittableRandom rng) {
      this.rng = rng;
      this.meanGapNs = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
      this.next = Long.MAX_VALUE;
      if (meanGapNs > 0) {
        next = 0;
        advance();
      }
    }

    void advance() {
      next += 1 + Math.round(-StrictMath.log(1.0 - rng.nextDouble()) * meanGapNs);
    }
  }
}
