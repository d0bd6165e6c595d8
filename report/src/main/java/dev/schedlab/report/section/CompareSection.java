package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.Section;
import dev.schedlab.report.chart.DiffChart;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The section of a {@code schedlab compare} JSON: each metric's change against the baseline with
 * its confidence interval, overlaid latency percentiles per configuration, and the full table.
 */
public final class CompareSection {
  private CompareSection() {}

  /** The section of {@code cmp} (its text is {@code json}). */
  public static Section of(JsonNode cmp, String json) {
    String baseline = cmp.path("baseline").asText();
    List<String> configs = new ArrayList<>();
    cmp.path("configurations").forEach(c -> configs.add(c.asText()));
    List<String> others = configs.stream().filter(c -> !c.equals(baseline)).toList();
    JsonNode metrics = cmp.path("metrics");
    StringBuilder b = new StringBuilder();
    List<Cell[]> facts = new ArrayList<>();
    facts.add(new Cell[] {Cell.text("baseline"), Cell.text(baseline)});
    facts.add(new Cell[] {Cell.text("configurations"), Cell.text(String.join(", ", configs))});
    List<String> seeds = new ArrayList<>();
    cmp.path("seeds").forEach(s -> seeds.add(s.asText()));
    facts.add(new Cell[] {Cell.text("seeds"), Cell.text(String.join(", ", seeds))});
    for (String c : others) {
      boolean same = cmp.path("same_digests_as_baseline").path(c).asBoolean();
      facts.add(
          new Cell[] {
            Cell.text(c + ": event streams"),
            Cell.text(
                same ? "identical to the baseline's (every seed)" : "differ from the baseline's")
          });
    }
    b.append(Blocks.facts(facts));
    b.append(differences(metrics, baseline, others, seeds.size()));
    b.append(ComparePercentiles.charts(metrics, configs));
    b.append(table(metrics, baseline, configs));
    return new Section(
        "compare",
        "Comparison: " + String.join(" vs ", configs),
        b.toString(),
        json,
        "compare.json");
  }

  private static String differences(JsonNode metrics, String baseline, List<String> others, int n) {
    List<DiffChart.Row> rows = new ArrayList<>();
    int undefined = 0;
    int unchanged = 0;
    int buckets = 0;
    for (String m : Numbers.names(metrics)) {
      if (m.contains(".histogram[")) {
        buckets++; // a histogram bucket's change says little; the percentile charts show them
        continue;
      }
      JsonNode base = metrics.path(m).path(baseline);
      double bm = base.path("mean").asDouble();
      if (bm == 0) {
        undefined++;
        continue;
      }
      List<DiffChart.Point> pts = new ArrayList<>();
      boolean changed = false;
      for (String c : others) {
        JsonNode x = metrics.path(m).path(c);
        if (!x.path("normalised").isNumber()) {
          pts.add(null);
          continue;
        }
        double change = (x.get("normalised").asDouble() - 1) * 100;
        double ci =
            100
                * Math.hypot(x.path("ci95").asDouble(), base.path("ci95").asDouble())
                / Math.abs(bm);
        changed |= x.path("mean").asDouble() != bm;
        pts.add(new DiffChart.Point(change, ci));
      }
      if (changed) {
        rows.add(new DiffChart.Row(m, pts));
      } else {
        unchanged++;
      }
    }
    if (rows.isEmpty() || others.isEmpty()) {
      return Blocks.p("note", "No metric differs from the baseline.");
    }
    rows.sort(
        Comparator.comparingDouble(
            (DiffChart.Row r) ->
                -r.points().stream()
                    .filter(p -> p != null)
                    .mapToDouble(p -> Math.abs(p.change()))
                    .max()
                    .orElse(0)));
    return Blocks.figure(
        DiffChart.of(
            "Change of each metric against " + baseline,
            others,
            rows,
            "Each point is (mean / baseline mean - 1) in percent (the JSON's normalised - 1), largest"
                + " change first; the whisker is the 95% confidence interval of the difference of the"
                + " means, sqrt(ci95^2 + baseline ci95^2), Student t with "
                + Math.max(0, n - 1)
                + " degrees of freedom, no pairing assumed (seeds share their random numbers, so the"
                + " true interval is narrower). "
                + unchanged
                + " metrics with means equal to the"
                + " baseline's, "
                + undefined
                + " with a baseline mean of 0 and "
                + buckets
                + " histogram buckets are only in the table."));
  }

  private static String table(JsonNode metrics, String baseline, List<String> configs) {
    List<String> header = new ArrayList<>(List.of("metric"));
    for (String c : configs) {
      header.add(c + " mean");
      header.add(c + " \u00b195% CI");
      if (!c.equals(baseline)) {
        header.add(c + " / " + baseline);
      }
    }
    List<List<Cell>> rows = new ArrayList<>();
    for (String m : Numbers.names(metrics)) {
      List<Cell> row = new ArrayList<>(List.of(Cell.text(m)));
      for (String c : configs) {
        JsonNode x = metrics.path(m).path(c);
        row.add(Cell.num(x.get("mean"), Ptr.of("metrics", m, c, "mean")));
        row.add(Cell.num(x.get("ci95"), Ptr.of("metrics", m, c, "ci95")));
        if (!c.equals(baseline)) {
          row.add(Cell.num(x.get("normalised"), Ptr.of("metrics", m, c, "normalised")));
        }
      }
      rows.add(row);
    }
    return Blocks.table(
        "Every metric: mean over seeds, 95% CI half-width, ratio to the baseline", header, rows);
  }
}
