package dev.schedlab.host.check;

import java.util.ArrayList;
import java.util.List;

/**
 * A latency histogram in microsecond buckets (the last bucket holds the overflows) and the largest
 * latency seen, as cyclictest reports them.
 */
record Latencies(List<Long> counts, long maxUs) {
  Latencies {
    counts = List.copyOf(counts);
  }

  /** The histograms of several runs as one: counts summed bucket by bucket, the largest maximum. */
  static Latencies pooled(List<Latencies> runs) {
    List<Long> sum = new ArrayList<>();
    long max = 0;
    for (Latencies l : runs) {
      for (int i = 0; i < l.counts.size(); i++) {
        if (i == sum.size()) {
          sum.add(0L);
        }
        sum.set(i, sum.get(i) + l.counts.get(i));
      }
      max = Math.max(max, l.maxUs);
    }
    return new Latencies(sum, max);
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
