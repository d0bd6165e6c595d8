package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.List;

/** The tables of a run section: exact values from the run JSON, sortable. */
final class RunTables {
  private RunTables() {}

  /** One row per CPU of {@code metrics.per_cpu}, one column per field. */
  static String perCpu(JsonNode metrics) {
    JsonNode per = metrics.path("per_cpu");
    if (!per.isObject() || per.isEmpty()) {
      return "";
    }
    List<String> cpus = Numbers.names(per);
    List<String> fields = Numbers.names(per.get(cpus.get(0)));
    List<String> header = new ArrayList<>(List.of("cpu"));
    header.addAll(fields);
    List<List<Cell>> rows = new ArrayList<>();
    for (String c : cpus) {
      List<Cell> row = new ArrayList<>(List.of(Cell.text(c)));
      for (String f : fields) {
        row.add(Cell.num(per.path(c).get(f), Ptr.of("metrics", "per_cpu", c, f)));
      }
      rows.add(row);
    }
    return Blocks.table("Per CPU (metrics.per_cpu)", header, rows);
  }

  /** Each tool report's numbers, one row per value. */
  static String reports(JsonNode reports) {
    StringBuilder b = new StringBuilder();
    for (String id : Numbers.names(reports)) {
      JsonNode one = reports.get(id);
      List<List<Cell>> rows = new ArrayList<>();
      for (Numbers.Leaf l : Numbers.leaves(one.path("report"), Ptr.of("reports", id, "report"))) {
        if (!l.path().contains("histogram")) {
          rows.add(List.of(Cell.text(l.path()), Cell.num(l.node(), l.ptr())));
        }
      }
      if (!rows.isEmpty()) {
        b.append(
            Blocks.table(
                "Report of "
                    + id
                    + " ("
                    + one.path("tool").asText()
                    + " "
                    + one.path("args").asText()
                    + ")",
                List.of("value", id),
                rows));
      }
    }
    return b.toString();
  }

  /** Every metric, flattened. */
  static String metrics(JsonNode metrics) {
    List<List<Cell>> rows = new ArrayList<>();
    for (Numbers.Leaf l : Numbers.leaves(metrics, Ptr.of("metrics"))) {
      rows.add(List.of(Cell.text(l.path()), Cell.num(l.node(), l.ptr())));
    }
    return rows.isEmpty() ? "" : Blocks.table("All metrics", List.of("metric", "value"), rows);
  }
}
