package dev.schedlab.host.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The check-host table as text and as a JSON-ready map, with its summary line. */
public final class CheckTable {
  private static final String FORMAT = "%-46s %-20s %12s %12s %7s %-13s %s%n";

  private CheckTable() {}

  /** The column header. */
  public static String header() {
    return String.format(
        Locale.ROOT,
        FORMAT,
        "workload",
        "figure",
        "real",
        "simulated",
        "ratio",
        "tolerance",
        "verdict");
  }

  /** Text lines for {@code rows}. */
  public static String text(List<Row> rows) {
    StringBuilder sb = new StringBuilder();
    for (Row r : rows) {
      sb.append(
          String.format(
              Locale.ROOT,
              FORMAT,
              r.workload(),
              r.figure() + " (" + r.unit() + ")",
              num(r.real()),
              num(r.simulated()),
              Double.isNaN(r.ratio()) ? "-" : String.format(Locale.ROOT, "%.2f", r.ratio()),
              r.tolerance(),
              r.verdict()));
    }
    return sb.toString();
  }

  /** How many figures were measured, within tolerance, within a factor 2. */
  public static String summary(List<Row> rows) {
    long measured = rows.stream().filter(Row::measured).count();
    long ok = rows.stream().filter(r -> r.verdict().equals(Row.OK)).count();
    long in2x =
        rows.stream()
            .filter(Row::measured)
            .filter(r -> Tolerance.within2x(r.real(), r.simulated()))
            .count();
    return String.format(
        Locale.ROOT,
        "%d of %d figures measured; %d within tolerance (%s), " + "%d within a factor 2 (%s)%n",
        measured,
        rows.size(),
        ok,
        pct(ok, measured),
        in2x,
        pct(in2x, measured));
  }

  /** The rows as maps for the JSON output. */
  public static List<Map<String, Object>> json(List<Row> rows) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("workload", r.workload());
      m.put("figure", r.figure());
      m.put("unit", r.unit());
      m.put("real", Double.isNaN(r.real()) ? null : r.real());
      m.put("simulated", Double.isNaN(r.simulated()) ? null : r.simulated());
      m.put("ratio", Double.isNaN(r.ratio()) ? null : r.ratio());
      m.put(
          "tolerance",
          Map.of("factor", r.tolerance().factor(), "absolute", r.tolerance().absolute()));
      m.put("verdict", r.verdict());
      out.add(m);
    }
    return out;
  }

  private static String num(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.3g", v);
  }

  private static String pct(long a, long b) {
    return b == 0 ? "-" : String.format(Locale.ROOT, "%.0f %%", 100.0 * a / b);
  }
}
