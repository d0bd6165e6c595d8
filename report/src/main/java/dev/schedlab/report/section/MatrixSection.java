package dev.schedlab.report.section;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schedlab.report.MatrixView;
import dev.schedlab.report.ReportInputException;
import dev.schedlab.report.Section;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Ptr;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The section of a matrix output directory: a heatmap of one value over two axes (one panel per
 * combination of the other axes that vary, seeds averaged) and the sortable table of every cell.
 * The value is a summary column, {@code events}, {@code sim_ns}, or any value of cells.jsonl (then
 * added to the embedded summary's cells, so every number in the page is in the embedded JSON).
 */
public final class MatrixSection {
  private static final ObjectMapper JSON = new ObjectMapper();

  private MatrixSection() {}

  /** The section of the matrix written to {@code dir}. */
  public static Section read(Path dir, MatrixView view) throws ReportInputException, IOException {
    Path summary = dir.resolve("summary.json");
    if (!Files.isRegularFile(summary)) {
      throw new ReportInputException(
          dir
              + ": not a matrix output directory (no summary.json;"
              + " schedlab matrix writes it)");
    }
    String text = Files.readString(summary, StandardCharsets.UTF_8);
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      throw new ReportInputException(
          summary
              + (loc == null ? "" : ":" + loc.getLineNr())
              + ": not valid JSON: "
              + e.getOriginalMessage());
    }
    if (root == null || !root.has("cells") || !root.get("cells").isArray()) {
      throw new ReportInputException(summary + ": expected a matrix summary (matrix, cells)");
    }
    String value = view.value() != null ? view.value() : defaultValue(root);
    if (!has(root, value)) {
      text = withValue(dir, (ObjectNode) root, value);
    }
    return of(root, text, value, view);
  }

  /** The section of summary {@code root} (text {@code json}) showing {@code value}. */
  static Section of(JsonNode root, String json, String value, MatrixView view)
      throws ReportInputException {
    MatrixAxes axes = MatrixAxes.of(root.get("cells"), view);
    StringBuilder b = new StringBuilder();
    List<Cell[]> facts = new ArrayList<>();
    facts.add(new Cell[] {Cell.text("matrix"), Cell.text(root.path("matrix").asText())});
    facts.add(new Cell[] {Cell.text("schedlab"), Cell.text(root.path("version").asText())});
    facts.add(new Cell[] {Cell.text("shard"), Cell.text(root.path("shard").asText())});
    facts.add(
        new Cell[] {Cell.text("cells"), Cell.num(root.get("cells_total"), Ptr.of("cells_total"))});
    facts.add(new Cell[] {Cell.text("failed"), Cell.num(root.get("failed"), Ptr.of("failed"))});
    b.append(Blocks.facts(facts));
    b.append(MatrixHeatmaps.html(root.get("cells"), value, axes));
    b.append(table(root));
    return new Section(
        "matrix", "Matrix: " + root.path("matrix").asText(), b.toString(), json, "summary.json");
  }

  private static String defaultValue(JsonNode root) {
    JsonNode cells = root.get("cells");
    if (cells.size() > 0 && cells.get(0).path("values").size() > 0) {
      return cells.get(0).path("values").fieldNames().next();
    }
    return "events";
  }

  private static boolean has(JsonNode root, String value) {
    if (value.equals("events") || value.equals("sim_ns")) {
      return true;
    }
    for (JsonNode c : root.get("cells")) {
      if (c.path("values").has(value)) {
        return true;
      }
    }
    return false;
  }

  /** Adds {@code value} from cells.jsonl to each cell's values; the new summary text. */
  private static String withValue(Path dir, ObjectNode root, String value)
      throws ReportInputException, IOException {
    Path log = dir.resolve("cells.jsonl");
    if (!Files.isRegularFile(log)) {
      throw new ReportInputException(
          dir
              + ": value "
              + value
              + " is not a summary column and there"
              + " is no cells.jsonl to take it from");
    }
    java.util.Map<String, JsonNode> byRun = new java.util.HashMap<>();
    java.util.Set<String> known = new java.util.TreeSet<>();
    int no = 0;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      no++;
      if (line.isBlank()) {
        continue;
      }
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new ReportInputException(
            log + ":" + no + ": not valid JSON: " + e.getOriginalMessage());
      }
      n.path("values").fieldNames().forEachRemaining(known::add);
      if (n.path("values").has(value)) {
        byRun.put(n.path("run_id").asText(), n.path("values").get(value));
      }
    }
    if (byRun.isEmpty()) {
      throw new ReportInputException(
          dir
              + ": no cell has a value named "
              + value
              + "; known: events,"
              + " sim_ns, "
              + String.join(", ", known));
    }
    for (JsonNode c : root.get("cells")) {
      JsonNode v = byRun.get(c.path("run_id").asText());
      if (v != null && c.path("values").isObject()) {
        ((ObjectNode) c.get("values")).set(value, v);
      }
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  private static String table(JsonNode root) {
    JsonNode cells = root.get("cells");
    List<String> values = new ArrayList<>();
    cells.forEach(
        c ->
            c.path("values")
                .fieldNames()
                .forEachRemaining(
                    v -> {
                      if (!values.contains(v)) {
                        values.add(v);
                      }
                    }));
    List<String> header =
        new ArrayList<>(
            List.of(
                "index",
                "workload",
                "machine",
                "params",
                "plugins",
                "seed",
                "status",
                "events",
                "sim_ns"));
    header.addAll(values);
    header.add("error");
    List<List<Cell>> rows = new ArrayList<>();
    for (int i = 0; i < cells.size(); i++) {
      JsonNode c = cells.get(i);
      List<Cell> row = new ArrayList<>();
      row.add(Cell.num(c.get("index"), Ptr.of("cells", i, "index")));
      for (String f : List.of("workload", "machine", "params", "plugins")) {
        row.add(Cell.text(c.path(f).asText()));
      }
      row.add(Cell.num(c.get("seed"), Ptr.of("cells", i, "seed")));
      boolean ok = "ok".equals(c.path("status").asText());
      row.add(new Cell(c.path("status").asText(), null, null, ok ? null : "bad"));
      row.add(Cell.num(ok ? c.get("events") : null, Ptr.of("cells", i, "events")));
      row.add(Cell.num(ok ? c.get("sim_ns") : null, Ptr.of("cells", i, "sim_ns")));
      for (String v : values) {
        row.add(Cell.num(c.path("values").get(v), Ptr.of("cells", i, "values", v)));
      }
      row.add(
          new Cell(c.path("error").isNull() ? "" : c.path("error").asText(), null, null, "bad"));
      rows.add(row);
    }
    return Blocks.table("Every cell (click a header to sort)", header, rows);
  }
}
