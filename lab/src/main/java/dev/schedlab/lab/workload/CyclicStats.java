package dev.schedlab.lab.workload;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * stress-ng --cyclic statistics over the stored samples (stress-cyclic.c): mean, mode (the most
 * frequent exact value; the smallest on ties), min, max, population standard deviation, and
 * percentiles taken as {@code sorted[floor(N * p / 100)]}.
 */
record CyclicStats(
    int n,
    double mean,
    long mode,
    long min,
    long max,
    double stddev,
    Map<String, Long> percentiles) {
  /** The percentile list stress-ng prints. */
  static final double[] PERCENTILES = {25.0, 50.0, 75.0, 90.0, 95.40, 99.0, 99.5, 99.9, 99.99};

  static CyclicStats of(long[] samples) {
    long[] s = samples.clone();
    Arrays.sort(s);
    int n = s.length;
    Map<String, Long> pct = new LinkedHashMap<>();
    if (n == 0) {
      for (double p : PERCENTILES) {
        pct.put(key(p), 0L);
      }
      return new CyclicStats(0, 0, 0, 0, 0, 0, pct);
    }
    double sum = 0;
    for (long v : s) {
      sum += v;
    }
    double mean = sum / n;
    double var = 0;
    for (long v : s) {
      var += (v - mean) * (v - mean);
    }
    long mode = s[0];
    int best = 0;
    for (int i = 0; i < n; ) {
      int j = i;
      while (j < n && s[j] == s[i]) {
        j++;
      }
      if (j - i > best) {
        best = j - i;
        mode = s[i];
      }
      i = j;
    }
    for (double p : PERCENTILES) {
      pct.put(key(p), s[Math.min(n - 1, index(n, p))]);
    }
    return new CyclicStats(n, mean, mode, s[0], s[n - 1], Math.sqrt(var / n), pct);
  }

  /** {@code floor(n * p / 100)}. */
  static int index(int n, double p) {
    return (int) Math.floor(n * p / 100.0);
  }

  static String key(double p) {
    return String.format(java.util.Locale.ROOT, "%.2f", p);
  }
}
