package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.chart.PercentileChart;
import dev.schedlab.report.chart.Value;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Latency distributions of a comparison, one chart per distribution with one line per
 * configuration: metrics named {@code PREFIX.min/p50/p90/p99/p99.9/max} (the run's latency
 * summaries) or {@code PREFIX.percentiles.NN} (a tool's percentiles, with its min and max).
 */
final class ComparePercentiles {
  private static final Pattern SUMMARY = Pattern.compile("^(.*)\\.(min|max|p50|p90|p99|p99\\.9)$");
  private static final Pattern TOOL = Pattern.compile("^(.*)\\.percentiles\\.(\\d+(?:\\.\\d+)?)$");

  private ComparePercentiles() {}

  static String charts(JsonNode metrics, List<String> configs) {
    Map<String, Map<String, Double>> families = new LinkedHashMap<>();
    for (String m : Numbers.names(metrics)) {
      Matcher t = TOOL.matcher(m);
      Matcher s = SUMMARY.matcher(m);
      if (t.matches()) {
        families
            .computeIfAbsent(t.group(1), k -> new LinkedHashMap<>())
            .put(m, Double.parseDouble(t.group(2)));
      } else if (s.matches()) {
        families
            .computeIfAbsent(s.group(1), k -> new LinkedHashMap<>())
            .put(m, RunCharts.QUANTILES.get(s.group(2)));
      }
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Map<String, Double>> f : families.entrySet()) {
      Map<String, Double> pts = f.getValue();
      long inner = pts.values().stream().filter(p -> p > 0 && p < 100).count();
      if (inner < 2) {
        continue;
      }
      List<PercentileChart.Series> series = new ArrayList<>();
      for (String c : configs) {
        List<PercentileChart.Point> ps = new ArrayList<>();
        pts.forEach(
            (m, pct) -> {
              JsonNode mean = metrics.path(m).path(c).path("mean");
              if (mean.isNumber()) {
                ps.add(
                    new PercentileChart.Point(
                        pct, new Value(mean.asDouble(), Ptr.of("metrics", m, c, "mean"))));
              }
            });
        series.add(new PercentileChart.Series(c, ps));
      }
      boolean ns = f.getKey().startsWith("metric.latency.");
      b.append(
          Blocks.figure(
              PercentileChart.of(
                  f.getKey() + ": percentiles by configuration",
                  ns ? "us" : "value (the tool's unit)",
                  ns ? 1000 : 1,
                  series,
                  "Each line is one configuration: the mean over seeds of each percentile (a CDF read"
                      + " sideways, the tail spread out).")));
    }
    return b.toString();
  }
}
