package dev.schedlab.lab.workload;

import dev.schedlab.engine.output.RunResult;

/** Access to a run's series and counters for reports. */
final class Raw {
  private Raw() {}

  /** The raw samples of capped series {@code name}, or an empty array. */
  static long[] samples(RunResult r, String name) {
    long[] v = r.rawSamples() == null ? null : r.rawSamples().get(name);
    return v == null ? new long[0] : v;
  }

  /** A counter, 0 when absent. */
  static long counter(RunResult r, String name) {
    Object v = r.metrics() == null ? null : r.metrics().get(name);
    return v instanceof Number n ? n.longValue() : 0;
  }

  /** Per-series cap for a periodic series: expected samples plus slack, bounded. */
  static int periodicCap(long durationNs, long periodNs) {
    long n = durationNs / Math.max(1, periodNs) + 2;
    return (int) Math.min(n, MAX_RAW);
  }

  /** At most this many raw samples are kept per series (memory bound; documented). */
  static final int MAX_RAW = 1_000_000;
}
