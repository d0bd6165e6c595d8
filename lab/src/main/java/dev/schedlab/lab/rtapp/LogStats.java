package dev.schedlab.lab.rtapp;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Percentiles of rt-app log columns, for comparing runs (the real tool's logs and the model's):
 * nearest rank on the sorted values ({@code sorted[ceil(p/100 * n) - 1]}), so every figure is a
 * value that occurred.
 */
public final class LogStats {
  /**
   * The columns compared by default: wake-up latency, slack, run time and their configured share.
   */
  public static final List<String> COLUMNS =
      List.of("wu_lat", "slack", "run", "c_duration", "period");

  /** The percentiles reported by default. */
  static final double[] PERCENTILES = {50, 90, 99, 100};

  private LogStats() {}

  /** Column {@code name} of {@code rows}. */
  public static long[] column(List<LogRow> rows, String name) {
    return rows.stream().mapToLong(r -> r.get(name)).toArray();
  }

  /** The {@code p}-th percentile (0 < p <= 100) of {@code values}; none for no values. */
  public static long percentile(long[] values, double p) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile " + p + " is not in (0, 100]");
    }
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /**
   * {@code {column: {"p50": v, "p90": v, "p99": v, "max": v, "min": v}}} for {@link #COLUMNS};
   * empty without rows.
   */
  public static Map<String, Map<String, Long>> summary(List<LogRow> rows) {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    if (rows.isEmpty()) {
      return out;
    }
    for (String c : COLUMNS) {
      long[] v = column(rows, c);
      Map<String, Long> m = new LinkedHashMap<>();
      m.put("min", Arrays.stream(v).min().orElseThrow());
      for (double p : PERCENTILES) {
        m.put(p == 100 ? "max" : "p" + (int) p, percentile(v, p));
      }
      out.put(c, m);
    }
    return out;
  }
}
