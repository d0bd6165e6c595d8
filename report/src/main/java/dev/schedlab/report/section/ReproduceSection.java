package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.Section;
import dev.schedlab.report.chart.BandChart;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Html;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.List;

/**
 * The section of a {@code schedlab reproduce} JSON (one object per experiment): each row's
 * simulated values beside the published ones, with the row's band where the experiment gives one.
 * The experiments are embedded as one JSON array, so pointers start with the experiment index.
 */
public final class ReproduceSection {
  private ReproduceSection() {}

  /** The section of {@code experiments}; {@code json} is their array. */
  public static Section of(List<JsonNode> experiments, String json) {
    StringBuilder b = new StringBuilder();
    List<String> ids = new ArrayList<>();
    for (int e = 0; e < experiments.size(); e++) {
      JsonNode x = experiments.get(e);
      ids.add(x.path("experiment").asText());
      b.append("<div class=\"experiment\" id=\"exp-")
          .append(Html.id(x.path("experiment").asText()))
          .append("\">")
          .append(Blocks.h(3, "Experiment " + x.path("experiment").asText()));
      experiment(b, x, e);
      b.append("</div>");
    }
    return new Section(
        "reproduce",
        "Reproduction: " + String.join(", ", ids),
        b.toString(),
        json,
        "reproduce.json");
  }

  private static void experiment(StringBuilder b, JsonNode x, int e) {
    List<String> cols = new ArrayList<>();
    x.path("columns").forEach(c -> cols.add(c.asText()));
    List<BandChart.Row> rows = new ArrayList<>();
    List<List<Cell>> table = new ArrayList<>();
    JsonNode rs = x.path("rows");
    boolean bands = false;
    for (JsonNode row : rs) {
      bands |= row.has("band");
    }
    for (int r = 0; r < rs.size(); r++) {
      JsonNode row = rs.get(r);
      List<BandChart.Cell> cells = new ArrayList<>();
      List<Cell> line =
          new ArrayList<>(
              List.of(Cell.text(row.path("label").asText()), Cell.text(row.path("unit").asText())));
      for (int k = 0; k < cols.size(); k++) {
        JsonNode sim = row.path("simulated").get(k);
        JsonNode pub = row.path("published").get(k);
        JsonNode band = row.path("band").get(k);
        Double lo = band != null && band.isArray() ? band.get(0).asDouble() : null;
        Double hi = band != null && band.isArray() ? band.get(1).asDouble() : null;
        Double s = sim != null && sim.isNumber() ? sim.asDouble() : null;
        cells.add(
            new BandChart.Cell(s, pub != null && pub.isNumber() ? pub.asDouble() : null, lo, hi));
        Cell simCell = Cell.num(sim, Ptr.of(e, "rows", r, "simulated", k));
        if (lo != null && hi != null && s != null) {
          simCell =
              new Cell(
                  simCell.text(),
                  simCell.sort(),
                  simCell.ptr(),
                  s >= lo && s <= hi ? "num in" : "num out");
        }
        line.add(simCell);
        line.add(Cell.num(pub, Ptr.of(e, "rows", r, "published", k)));
        if (bands) {
          line.add(lo == null ? Cell.text("") : new Cell(Blocks.range(band), null, null, "num"));
        }
      }
      rows.add(new BandChart.Row(row.path("label").asText(), row.path("unit").asText(), cells));
      table.add(line);
    }
    b.append(Blocks.p("note", x.path("description").asText("")));
    b.append(
        Blocks.figure(
            BandChart.of(
                x.path("experiment").asText() + ": simulated against published",
                cols,
                rows,
                "One strip per row, each on its own scale (the numbers at its ends): filled dots"
                    + " are the simulated values (mean over seeds unless the row says max), open diamonds"
                    + " the published ones, shaded boxes the range the experiment accepts.")));
    List<String> header = new ArrayList<>(List.of("row", "unit"));
    for (String c : cols) {
      header.add(c + " simulated");
      header.add(c + " published");
      if (bands) {
        header.add(c + " band");
      }
    }
    b.append(
        Blocks.table(
            bands ? "Rows (simulated: green inside the band, red outside)" : "Rows",
            header,
            table));
    StringBuilder notes = new StringBuilder("<ul class=\"notes\">");
    x.path("notes").forEach(n -> notes.append("<li>").append(Html.esc(n.asText())).append("</li>"));
    b.append(notes).append("</ul>");
  }
}
