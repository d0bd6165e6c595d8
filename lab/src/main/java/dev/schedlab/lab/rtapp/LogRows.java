package dev.schedlab.lab.rtapp;

import dev.schedlab.lab.rtapp.RtAppPlan.PhasePlan;
import dev.schedlab.lab.rtapp.RtAppPlan.ThreadPlan;
import dev.schedlab.lab.rtapp.RtAppPlan.TimedEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds a thread's log rows from the stamps its program recorded, the way rt-app's {@code
 * thread_body()} and {@code run_event()} fill {@code log_data_t}: per phase execution, the start
 * and end, the wall time of each run event (truncated to µs each), and per timer the slack (expiry
 * minus now, floored to µs; summed with {@code cumulative_slack}) and, when it slept, the wake-up
 * latency (a missed timer resets the sum to 0). Only phases that ended are rows (rt-app's file mode
 * drops the one cut by the end of the run).
 */
public final class LogRows {
  private LogRows() {}

  /** The rows of thread {@code comm} (shaped by {@code t}) with index {@code idx}. */
  public static List<LogRow> of(
      RtAppPlan plan, ThreadPlan t, String comm, long idx, Map<String, long[]> raw) {
    long[] start = stamps(raw, comm, RtAppPlan.START);
    long[] end = stamps(raw, comm, RtAppPlan.END);
    long[] runB = stamps(raw, comm, RtAppPlan.RUN_BEGIN);
    long[] runE = stamps(raw, comm, RtAppPlan.RUN_END);
    long[] slack = stamps(raw, comm, RtAppPlan.SLACK);
    long[] wake = stamps(raw, comm, RtAppPlan.WAKE);
    int ri = 0;
    int si = 0;
    int wi = 0;
    ArrayDeque<LogRow> rows = new ArrayDeque<>();
    PhaseWalk walk = new PhaseWalk(t);
    for (int r = 0; r < end.length && walk.hasNext(); r++) {
      PhasePlan p = walk.next();
      long perf = 0;
      long run = 0;
      long slackUs = 0;
      long wu = 0;
      for (TimedEvent e : p.events()) {
        switch (e.kind()) {
          case RUN, RUNTIME -> {
            run += (runE[ri] - runB[ri]) / 1000;
            ri++;
            perf +=
                e.kind() == RtAppPlan.Kind.RUN
                    ? e.us() / plan.nsPerLoop()
                    : (e.us() + 31) / 32 * (32 / plan.nsPerLoop());
          }
          case TIMER -> {
            long s = Math.floorDiv(slack[si++], 1000);
            slackUs = plan.cumulativeSlack() ? slackUs + s : s;
            if (slack[si - 1] > 0) {
              wu += wake[wi++] / 1000;
            } else {
              wu = 0;
            }
          }
          default -> throw new IllegalStateException();
        }
      }
      rows.add(
          new LogRow(
              idx,
              perf,
              run,
              (end[r] - start[r]) / 1000,
              start[r] / 1000,
              end[r] / 1000,
              start[r] / 1000,
              slackUs,
              p.cDurationUs(),
              p.cPeriodUs(),
              wu));
      if (plan.log().ringRows() > 0 && rows.size() > plan.log().ringRows()) {
        rows.removeFirst(); // rt-app's circular buffer keeps the newest rows
      }
    }
    return new ArrayList<>(rows);
  }

  private static long[] stamps(Map<String, long[]> raw, String comm, String key) {
    long[] v = raw.get("clock/" + comm + "/" + key);
    return v == null ? new long[0] : v;
  }

  /**
   * The phases a thread runs, in order: each phase {@code loop} times, the whole {@code loop}
   * times.
   */
  private static final class PhaseWalk {
    private final ThreadPlan t;
    private int phase;
    private long phaseLoop;
    private long threadLoop;

    PhaseWalk(ThreadPlan t) {
      this.t = t;
    }

    boolean hasNext() {
      return t.loop() != 0 && (t.loop() < 0 || threadLoop < t.loop());
    }

    PhasePlan next() {
      PhasePlan p = t.phases().get(phase);
      if (++phaseLoop == p.loop()) {
        phaseLoop = 0;
        if (++phase == t.phases().size()) {
          phase = 0;
          threadLoop++;
        }
      }
      return p;
    }
  }
}
