package dev.schedlab.lab.experiment;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** The table of one experiment: simulated values (means over seeds) beside the published ones. */
public final class ExperimentResult {
  private final Experiment exp;
  private final Map<java.nio.file.Path, Map<String, List<Batch.Run>>> runs;

  /** Results of {@code exp}: per scenario of {@link Experiment#scenarios()}, runs by column. */
  public ExperimentResult(
      Experiment exp, Map<java.nio.file.Path, Map<String, List<Batch.Run>>> runs) {
    this.exp = exp;
    this.runs = runs;
  }

  /** The simulated value of {@code row} in column {@code col}, or NaN when missing. */
  public double simulated(Experiment.Row row, String col) {
    double v = mean(row, col);
    if (row.ratioTo() != null) {
      double d = mean(row, row.ratioTo());
      return d == 0 ? Double.NaN : v / d;
    }
    return v;
  }

  private double mean(Experiment.Row row, String col) {
    String key = row.value().replaceFirst(":", ".");
    List<Double> vals = new ArrayList<>();
    Path scenario = row.scenario() == null ? exp.scenario() : row.scenario();
    for (Batch.Run r :
        Objects.requireNonNull(Objects.requireNonNull(runs.get(scenario)).get(col))) {
      Double x = r.values().get(key);
      if (x == null) {
        return Double.NaN;
      }
      vals.add(x * row.scale());
    }
    return row.aggregate().equals("max")
        ? vals.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN)
        : Summary.of(vals).mean();
  }

  private List<String> notes() {
    List<String> n = new ArrayList<>(exp.notes());
    n.add(
        String.format(
            Locale.ROOT,
            "seeds %d..%d (%d per column); simulated = mean over seeds unless a row says max",
            exp.firstSeed(),
            exp.firstSeed() + exp.seeds() - 1,
            exp.seeds()));
    boolean fullLength = exp.sets().equals(exp.full().sets()) && exp.seeds() >= exp.full().seeds();
    if (!exp.sets().isEmpty()) {
      n.add((fullLength ? "run with: " : "reduced for run time: ") + String.join(", ", exp.sets()));
    }
    if (!fullLength) {
      n.add("shortened run; the seed's length and sample count: reproduce --full");
    }
    return n;
  }

  /**
   * {@code {"experiment", "columns", "rows": [{"label","unit","simulated","published"}], "notes"}};
   * a row with a band also has {@code "band": [[lo, hi] or null, ...]}.
   */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("experiment", exp.id());
    List<String> cols = exp.columns().stream().map(Configuration::name).toList();
    m.put("columns", cols);
    List<Object> rows = new ArrayList<>();
    for (Experiment.Row r : exp.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("label", r.label());
      row.put("unit", r.unit());
      List<Double> sim = new ArrayList<>();
      for (String c : cols) {
        double v = simulated(r, c);
        sim.add(Double.isNaN(v) ? null : Math.round(v * 1e6) / 1e6);
      }
      row.put("simulated", sim);
      row.put("published", r.published());
      if (r.hasBand()) {
        row.put(
            "band", r.band().stream().map(b -> b == null ? null : List.of(b[0], b[1])).toList());
      }
      rows.add(row);
    }
    m.put("rows", rows);
    m.put("notes", notes());
    return m;
  }

  /** The seed-style table: per column "simulated (published)". */
  public String text() {
    List<String> cols = exp.columns().stream().map(Configuration::name).toList();
    List<List<String>> rows = new ArrayList<>();
    List<String> head = new ArrayList<>(List.of("", "unit"));
    head.addAll(cols);
    rows.add(head);
    for (Experiment.Row r : exp.rows()) {
      List<String> row = new ArrayList<>(List.of(r.label(), r.unit()));
      for (int i = 0; i < cols.size(); i++) {
        Double pub = r.published().get(i);
        double[] band = r.hasBand() ? r.band().get(i) : null;
        row.add(
            Comparison.num(simulated(r, cols.get(i)))
                + " (published "
                + (pub == null ? "-" : Comparison.num(pub))
                + (band == null
                    ? ""
                    : ", band " + Comparison.num(band[0]) + "-" + Comparison.num(band[1]))
                + ")");
      }
      rows.add(row);
    }
    StringBuilder sb = new StringBuilder();
    sb.append("## ").append(exp.id());
    if (!exp.description().isEmpty()) {
      sb.append(": ").append(exp.description());
    }
    sb.append('\n').append(Tables.render(rows));
    for (String n : notes()) {
      sb.append("Note: ").append(n).append('\n');
    }
    return sb.toString();
  }
}
