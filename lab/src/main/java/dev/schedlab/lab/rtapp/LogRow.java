package dev.schedlab.lab.rtapp;

/**
 * One row of an rt-app thread log: one execution of a phase (doc/tutorial.txt, "Log and gnuplot").
 * Times are µs.
 *
 * @param idx the thread's index
 * @param perf work done by its run events, in units of 1000 calibration loops
 * @param run wall time spent in its run and runtime events
 * @param period wall time of the whole phase
 * @param start absolute start (CLOCK_MONOTONIC; in schedlab, simulated time from 0)
 * @param end absolute end
 * @param relSt start relative to the start of the use case
 * @param slack last timer's expiry minus the time it was reached (or their sum, cumulative)
 * @param cDuration configured duration of its run and runtime events
 * @param cPeriod configured periods of its timers
 * @param wuLat wake-up latencies after its timers (reset by a missed timer)
 */
public record LogRow(
    long idx,
    long perf,
    long run,
    long period,
    long start,
    long end,
    long relSt,
    long slack,
    long cDuration,
    long cPeriod,
    long wuLat) {
  /** The column names, in file order, as rt-app's header line names them. */
  static final String[] COLUMNS = {
    "idx",
    "perf",
    "run",
    "period",
    "start",
    "end",
    "rel_st",
    "slack",
    "c_duration",
    "c_period",
    "wu_lat"
  };

  /** A row from its values in {@link #COLUMNS} order. */
  public static LogRow of(long[] v) {
    return new LogRow(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]);
  }

  /** The value of column {@code name}. */
  public long get(String name) {
    return switch (name) {
      case "idx" -> idx;
      case "perf" -> perf;
      case "run" -> run;
      case "period" -> period;
      case "start" -> start;
      case "end" -> end;
      case "rel_st" -> relSt;
      case "slack" -> slack;
      case "c_duration" -> cDuration;
      case "c_period" -> cPeriod;
      case "wu_lat" -> wuLat;
      default -> throw new IllegalArgumentException("no rt-app log column " + name);
    };
  }
}
