package dev.schedlab.host.check;

import java.util.List;

/**
 * A latency histogram in microsecond buckets (the last bucket holds the overflows) and the largest
 * latency seen, as cyclictest reports them.
 */
record Latencies(List<Long> counts, long maxUs) {
  Latencies {
    counts = List.copyOf(counts);
  }

  /** The smallest bucket whose cumulative count reaches fraction {@code q} of the samples. */
  double percentile(double q) {
    long total = counts.stream().mapToLong(Long::longValue).sum();
    long seen = 0;
    for (int us = 0; us < counts.size(); us++) {
      seen += counts.get(us);
      if (total > 0 && seen >= Math.ceil(q * total)) {
        return us;
      }
    }
    return Double.NaN;
  }
}
