package dev.schedlab.host.calibrate;

import dev.schedlab.host.Sourced;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The background parameters ({@code bg.*}) from two readings an idle window apart (docs/host.md,
 * "Background kernel activity"). With T the window, N the CPUs and deltas over it:
 *
 * <ul>
 *   <li>{@code bg.timer_rate_milli} = 1000 x TIMER / (T x N): one softirq per expiry (two timers
 *       due at one tick make one softirq, rare at these rates);
 *   <li>{@code bg.kworker_permille} = 1000 x kworker runs / TIMER, at most 1000: each background
 *       work item is queued by a timer's callback and runs once;
 *   <li>{@code bg.kworker_burst} = kworker runtime / kworker runs;
 *   <li>{@code bg.rcu_callbacks_milli}: first 1000 x RCU / TIMER, at most 1000, as if each callback
 *       cost one RCU_SOFTIRQ; the calibration then scales it by the model's own RCU softirqs per
 *       TIMER softirq in an idle window ({@code Calibrator}), since the model spends several per
 *       callback (the grace period's request, its start and end noted, quiescent states reported).
 * </ul>
 *
 * Kworker runs count the bound {@code kworker/N:M} threads present at both readings.
 */
final class BackgroundMeasure {
  private BackgroundMeasure() {}

  /** The parameters, each with its figures and formula; empty when no TIMER softirq ran. */
  static Map<String, Sourced<Long>> params(
      BackgroundSample before, BackgroundSample after, double seconds, int cpus, long hz) {
    Map<String, Sourced<Long>> p = new LinkedHashMap<>();
    long timer = after.timer() - before.timer();
    long rcu = after.rcu() - before.rcu();
    if (timer <= 0 || seconds <= 0 || cpus <= 0) {
      return p;
    }
    long runs = 0;
    long runtime = 0;
    for (Map.Entry<Integer, long[]> e : after.kworkers().entrySet()) {
      long[] b = before.kworkers().get(e.getKey());
      if (b != null && e.getValue()[1] >= b[1]) {
        runs += e.getValue()[1] - b[1];
        runtime += e.getValue()[0] - b[0];
      }
    }
    String window =
        String.format(
            Locale.ROOT,
            "background, idle window of %.1f s on %d CPUs: /proc/softirqs TIMER +%d, RCU +%d",
            seconds,
            cpus,
            timer,
            rcu);
    String nohz = "";
    if (before.loc() >= 0 && after.loc() >= 0) {
      double locPerCpu = (after.loc() - before.loc()) / (seconds * cpus);
      nohz =
          String.format(
              Locale.ROOT,
              "; /proc/interrupts LOC %.0f/s per CPU against HZ %d (%s)",
              locPerCpu,
              hz,
              locPerCpu < 0.5 * hz ? "nohz idle: the tick stops" : "the tick runs");
    }
    p.put(
        "bg.timer_rate_milli",
        Sourced.of(
            Math.round(1000.0 * timer / (seconds * cpus)),
            window + "; 1000 x TIMER / (T x CPUs)" + nohz));
    p.put(
        "bg.rcu_callbacks_milli",
        Sourced.of(
            Math.min(1000, Math.round(1000.0 * rcu / timer)),
            window + "; 1000 x RCU / TIMER, at most 1000 (one softirq per callback)"));
    String kw =
        "background, the same window: bound kworker/N:M threads (/proc/PID/schedstat) ran "
            + runs
            + " times for "
            + runtime
            + " ns";
    p.put(
        "bg.kworker_permille",
        Sourced.of(
            Math.min(1000, Math.round(1000.0 * runs / timer)), kw + "; 1000 x runs / TIMER"));
    if (runs > 0) {
      p.put("bg.kworker_burst", Sourced.of(runtime / runs, kw + "; runtime / runs"));
    }
    return p;
  }
}
