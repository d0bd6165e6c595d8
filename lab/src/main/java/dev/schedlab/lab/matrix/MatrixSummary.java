package dev.schedlab.lab.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.engine.Version;
import dev.schedlab.lab.output.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The summary of a matrix (or of one shard): one row per cell in matrix order, as a text table,
 * {@code summary.csv} (RFC 4180) and {@code summary.json}. The columns are fixed, then the matrix's
 * {@code values}.
 */
public final class MatrixSummary {
  static final List<String> COLUMNS =
      List.of(
          "index",
          "run_id",
          "workload",
          "machine",
          "params",
          "plugins",
          "seed",
          "status",
          "digest",
          "events",
          "sim_ms");

  private final String matrix;
  private final Shard shard;
  private final List<String> values;
  private final MatrixRunner.Outcome outcome;

  /** The summary of {@code outcome} with the {@code values} columns. */
  public MatrixSummary(
      String matrix, Shard shard, List<String> values, MatrixRunner.Outcome outcome) {
    this.matrix = matrix;
    this.shard = shard;
    this.values = List.copyOf(values);
    this.outcome = outcome;
  }

  /** The rows: the fixed columns, the value columns, then {@code error}. */
  List<List<String>> rows() {
    List<List<String>> rows = new ArrayList<>();
    for (Cell c : outcome.cells()) {
      CellResult r = Objects.requireNonNull(outcome.results().get(c.runId()));
      List<String> row =
          new ArrayList<>(
              List.of(
                  Integer.toString(c.index()),
                  c.runId(),
                  c.workload().label(),
                  c.machineLabel(),
                  c.params().label(),
                  c.pluginsLabel(),
                  r.seed() == null ? c.seedLabel() : r.seed().toString(),
                  r.ok() ? r.status() : "FAILED",
                  r.ok() ? r.digest() : "-",
                  r.ok() ? Long.toString(r.events()) : "-",
                  r.ok() ? number(r.simNs() / 1e6) : "-"));
      for (String v : values) {
        Double x = r.values().get(v);
        row.add(x == null ? "-" : number(x));
      }
      row.add(r.ok() ? String.join("; ", r.ejections()) : r.error());
      rows.add(row);
    }
    return rows;
  }

  private List<String> header() {
    List<String> h = new ArrayList<>(COLUMNS);
    h.addAll(values);
    h.add("error");
    return h;
  }

  /** The table printed at the end of a matrix run; digests shortened to 16 hex digits. */
  public String text() {
    List<String> h = header();
    h.remove(h.size() - 1);
    List<List<String>> rows = new ArrayList<>();
    for (List<String> r : rows()) {
      List<String> row = new ArrayList<>(r.subList(0, r.size() - 1));
      row.set(8, row.get(8).length() > 16 ? row.get(8).substring(0, 16) : row.get(8));
      rows.add(row);
    }
    int[] width = new int[h.size()];
    for (int i = 0; i < h.size(); i++) {
      width[i] = h.get(i).length();
      for (List<String> r : rows) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "matrix %s%s: %d cells (%d run now, %d from %s), %d failed%n",
            matrix,
            shard.equals(Shard.ALL) ? "" : " shard " + shard,
            outcome.cells().size(),
            outcome.ran(),
            outcome.reused(),
            CellLog.FILE,
            outcome.failed()));
    line(sb, h, width);
    List<String> rule = new ArrayList<>();
    for (int w : width) {
      rule.add("-".repeat(w));
    }
    line(sb, rule, width);
    rows.forEach(r -> line(sb, r, width));
    for (List<String> r : rows()) {
      if (!r.get(r.size() - 1).isEmpty()) {
        sb.append("cell ")
            .append(r.get(0))
            .append(" (")
            .append(r.get(1))
            .append(") failed: ")
            .append(r.get(r.size() - 1))
            .append('\n');
      }
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] width) {
    for (int i = 0; i < cells.size(); i++) {
      sb.append(i == 0 ? "" : "  ").append(String.format("%-" + width[i] + "s", cells.get(i)));
    }
    sb.setLength(sb.toString().stripTrailing().length());
    sb.append('\n');
  }

  /** {@code summary.csv}: a header row and one row per cell, full digests, RFC 4180 quoting. */
  public String csv() {
    StringBuilder sb = new StringBuilder();
    csvLine(sb, header());
    rows().forEach(r -> csvLine(sb, r));
    return sb.toString();
  }

  private static void csvLine(StringBuilder sb, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      boolean quote = c.contains(",") || c.contains("\"") || c.contains("\n") || c.contains("\r");
      sb.append(i == 0 ? "" : ",").append(quote ? "\"" + c.replace("\"", "\"\"") + "\"" : c);
    }
    sb.append("\r\n");
  }

  /** {@code summary.json}: the matrix, counts and one object per cell. */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("matrix", matrix);
    m.put("version", Version.current());
    m.put("shard", shard.toString());
    m.put("cells_total", outcome.cells().size());
    m.put("failed", outcome.failed());
    m.put("ran", outcome.ran());
    m.put("reused", outcome.reused());
    List<Object> cells = new ArrayList<>();
    for (Cell c : outcome.cells()) {
      CellResult r = Objects.requireNonNull(outcome.results().get(c.runId()));
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("index", c.index());
      o.put("run_id", c.runId());
      o.put("workload", c.workload().label());
      o.put("source", c.workload().source());
      o.put("machine", c.machineLabel());
      o.put("params", c.params().label());
      o.put("overrides", c.overrides());
      o.put("plugins", c.pluginsLabel());
      o.put("seed", r.seed());
      o.put("status", r.status());
      o.put("error", r.error());
      o.put("ejections", r.ejections());
      o.put("digest", r.digest());
      o.put("events", r.events());
      o.put("sim_ns", r.simNs());
      Map<String, Double> v = new LinkedHashMap<>();
      values.forEach(k -> v.put(k, r.values().get(k)));
      o.put("values", v);
      cells.add(o);
    }
    m.put("cells", cells);
    return m;
  }

  /** Writes {@code summary.csv} and {@code summary.json} into {@code dir}, each atomically. */
  public void write(Path dir) throws IOException {
    AtomicFiles.write(dir.resolve("summary.csv"), csv().getBytes(StandardCharsets.UTF_8));
    String json =
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json())
            + "\n";
    AtomicFiles.write(dir.resolve("summary.json"), json.getBytes(StandardCharsets.UTF_8));
  }

  private static String number(double x) {
    if (x == Math.rint(x) && Math.abs(x) < 1e15) {
      return Long.toString((long) x);
    }
    return String.format(Locale.ROOT, "%.4g", x);
  }
}
