package dev.schedlab.lab.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The result of {@code schedlab compare}: per metric and configuration the mean over seeds, its 95%
 * confidence interval and the change normalised to the first configuration (the baseline), printed
 * like the seeds' tables ({@code 0.80 [-20.51%]}).
 */
public final class Comparison {
  private final Map<String, List<Batch.Run>> runs;
  private final List<String> metrics;

  /**
   * Compares {@code runs} (first entry = baseline) over the metrics matching any of {@code
   * filters}.
   */
  public Comparison(Map<String, List<Batch.Run>> runs, List<String> filters) {
    this.runs = runs;
    TreeSet<String> names = new TreeSet<>();
    runs.values().forEach(l -> l.forEach(r -> names.addAll(r.values().keySet())));
    List<Pattern> ps = filters.stream().map(Pattern::compile).toList();
    this.metrics =
        names.stream()
            .filter(n -> ps.isEmpty() || ps.stream().anyMatch(p -> p.matcher(n).find()))
            .toList();
  }

  /** The summary of {@code metric} under {@code config}. */
  public Summary summary(String config, String metric) {
    List<Double> v = new ArrayList<>();
    for (Batch.Run r : Objects.requireNonNull(runs.get(config))) {
      Double x = r.values().get(metric);
      v.add(x == null ? 0.0 : x);
    }
    return Summary.of(v);
  }

  private String baseline() {
    return runs.keySet().iterator().next();
  }

  /** Mean of {@code config} divided by the baseline's mean (NaN when the baseline is 0). */
  public double normalised(String config, String metric) {
    double b = summary(baseline(), metric).mean();
    double m = summary(config, metric).mean();
    if (b == 0) {
      return m == 0 ? 1.0 : Double.NaN;
    }
    return m / b;
  }

  /** Whether every seed's digest equals the baseline's for the same seed. */
  public boolean sameDigests(String config) {
    List<Batch.Run> b = Objects.requireNonNull(runs.get(baseline()));
    List<Batch.Run> c = Objects.requireNonNull(runs.get(config));
    for (int i = 0; i < b.size(); i++) {
      if (!b.get(i).digest().equals(c.get(i).digest())) {
        return false;
      }
    }
    return true;
  }

  /** JSON-ready: configurations, seeds, digests and per metric {mean, ci95, normalised}. */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("baseline", baseline());
    m.put("configurations", new ArrayList<>(runs.keySet()));
    m.put(
        "seeds",
        Objects.requireNonNull(runs.get(baseline())).stream().map(Batch.Run::seed).toList());
    Map<String, Object> digests = new LinkedHashMap<>();
    runs.forEach((c, l) -> digests.put(c, l.stream().map(Batch.Run::digest).toList()));
    m.put("digests", digests);
    Map<String, Object> same = new LinkedHashMap<>();
    runs.keySet().forEach(c -> same.put(c, sameDigests(c)));
    m.put("same_digests_as_baseline", same);
    Map<String, Object> ms = new LinkedHashMap<>();
    for (String metric : metrics) {
      Map<String, Object> per = new LinkedHashMap<>();
      for (String c : runs.keySet()) {
        Summary s = summary(c, metric);
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("mean", s.mean());
        one.put("ci95", s.ci95());
        double norm = normalised(c, metric);
        one.put("normalised", Double.isNaN(norm) ? null : norm);
        per.put(c, one);
      }
      ms.put(metric, per);
    }
    m.put("metrics", ms);
    return m;
  }

  /** The table: one row per metric, one column per configuration. */
  public String text() {
    List<String> configs = new ArrayList<>(runs.keySet());
    List<List<String>> rows = new ArrayList<>();
    List<String> head = new ArrayList<>(List.of("metric"));
    head.addAll(configs);
    rows.add(head);
    for (String metric : metrics) {
      List<String> row = new ArrayList<>(List.of(metric));
      for (String c : configs) {
        Summary s = summary(c, metric);
        double norm = normalised(c, metric);
        String change =
            c.equals(baseline())
                ? "1.00"
                : Double.isNaN(norm)
                    ? "n/a"
                    : String.format(Locale.ROOT, "%.2f [%+.2f%%]", norm, (norm - 1) * 100);
        row.add(String.format(Locale.ROOT, "%s ±%s (%s)", num(s.mean()), num(s.ci95()), change));
      }
      rows.add(row);
    }
    StringBuilder sb = new StringBuilder();
    int n = Objects.requireNonNull(runs.get(baseline())).size();
    sb.append(
        String.format(
            Locale.ROOT,
            "# %d seed(s) per configuration (%s); mean ±95%% CI (Student t); (mean / baseline mean)%n",
            n,
            runs.get(baseline()).stream()
                .map(r -> Long.toString(r.seed()))
                .reduce((a, b) -> a + "," + b)
                .orElse("")));
    for (String c : configs) {
      if (!c.equals(baseline())) {
        sb.append(
            String.format(
                Locale.ROOT,
                "# %s: digests %s the baseline's%n",
                c,
                sameDigests(c) ? "identical to" : "differ from"));
      }
    }
    sb.append(Tables.render(rows));
    return sb.toString();
  }

  static String num(double v) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%.1f", v)
        : String.format(Locale.ROOT, "%.4g", v);
  }
}
