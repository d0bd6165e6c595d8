package dev.schedlab.engine.core;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;
import org.jspecify.annotations.Nullable;

/**
 * One latency series (ns): an HdrHistogram of every sample, or, when the workload caps the series,
 * only its first {@code cap} samples kept raw as well (tools such as stress-ng compute exact
 * percentiles and modes from them). The histogram's counts are packed (the same buckets, stored
 * sparsely): a series spans a few buckets of the 100 s range, and a tool that records three series
 * per CPU on a large machine would otherwise hold about 200 KB per series.
 */
final class SampleSeries {
  final Histogram histogram = new PackedHistogram(100_000_000_000L, 3);
  private final int cap;
  private final long @Nullable [] raw;
  private int count;

  SampleSeries(int cap) {
    this.cap = cap;
    this.raw = cap > 0 ? new long[cap] : null;
  }

  void record(long valueNs) {
    if (raw != null) {
      if (count >= cap) {
        return;
      }
      raw[count] = valueNs;
    }
    count++;
    histogram.recordValue(Math.min(Math.max(0, valueNs), histogram.getHighestTrackableValue()));
  }

  /** The raw samples in recording order, or null for an uncapped series. */
  long @Nullable [] raw() {
    return raw == null ? null : Arrays.copyOf(raw, count);
  }
}
