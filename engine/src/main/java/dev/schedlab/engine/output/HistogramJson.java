package dev.schedlab.engine.output;

import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.AbstractHistogram;

/**
 * Summarizes an HdrHistogram of nanosecond values as a sorted, JSON-ready map: {@code count},
 * {@code max}, {@code mean}, {@code min}, {@code p50}, {@code p90}, {@code p99}, {@code p99.9},
 * {@code stddev}. Counts and percentiles are longs (ns, at the histogram's precision); mean and
 * stddev are doubles rounded to 0.1 ns so the JSON stays stable. An empty histogram gives count 0
 * and zeros.
 */
public final class HistogramJson {
  private HistogramJson() {}

  /** The summary of {@code h}; put it under a metric name such as {@code wakeup_latency_ns}. */
  public static Map<String, Object> of(AbstractHistogram h) {
    Map<String, Object> m = new TreeMap<>();
    long n = h.getTotalCount();
    m.put("count", n);
    m.put("min", n == 0 ? 0L : h.getMinValue());
    m.put("max", n == 0 ? 0L : h.getMaxValue());
    m.put("mean", n == 0 ? 0.0 : round(h.getMean()));
    m.put("stddev", n == 0 ? 0.0 : round(h.getStdDeviation()));
    m.put("p50", n == 0 ? 0L : h.getValueAtPercentile(50.0));
    m.put("p90", n == 0 ? 0L : h.getValueAtPercentile(90.0));
    m.put("p99", n == 0 ? 0L : h.getValueAtPercentile(99.0));
    m.put("p99.9", n == 0 ? 0L : h.getValueAtPercentile(99.9));
    return m;
  }

  private static double round(double v) {
    return Math.round(v * 10.0) / 10.0;
  }
}
