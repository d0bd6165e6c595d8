package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Simulated values beside published ones: one strip per row (each on its own scale, rows have
 * different units), one line per column with the simulated value (filled dot), the published value
 * (open diamond) and the row's accepted band for that column (shaded).
 */
public final class BandChart {
  private static final double WIDTH = 960;

  /**
   * One column of one row.
   *
   * @param simulated the simulated value, or null
   * @param published the published value, or null
   * @param lo lower end of the band, or null
   * @param hi upper end of the band, or null
   */
  public record Cell(
      @Nullable Double simulated,
      @Nullable Double published,
      @Nullable Double lo,
      @Nullable Double hi) {}

  /**
   * One row.
   *
   * @param label row label
   * @param unit its unit
   * @param cells one per column
   */
  public record Row(String label, String unit, List<Cell> cells) {}

  private BandChart() {}

  /** The chart of {@code rows} over {@code columns}. */
  public static Chart of(String title, List<String> columns, List<Row> rows, String note) {
    double labelW =
        Math.min(
            380,
            16
                + rows.stream()
                    .mapToDouble(r -> Text.width(r.label() + " (" + r.unit() + ")"))
                    .max()
                    .orElse(80));
    double sub = 11;
    double rowH = 14 + columns.size() * sub;
    double top = 30;
    double height = top + rows.size() * rowH + 10;
    Svg svg = new Svg(WIDTH, height, title);
    double x0 = labelW + 50;
    double x1 = WIDTH - 60;
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      double y0 = top + i * rowH;
      double lo = Double.MAX_VALUE;
      double hi = -Double.MAX_VALUE;
      for (Cell c : r.cells()) {
        for (Double v : new Double[] {c.simulated(), c.published(), c.lo(), c.hi()}) {
          if (v != null && !v.isNaN() && !v.isInfinite()) {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
          }
        }
      }
      svg.el("rect")
          .a("x", 0)
          .a("y", y0)
          .a("width", WIDTH)
          .a("height", rowH)
          .a("fill", i % 2 == 0 ? "#fbfbfb" : "#ffffff")
          .end();
      svg.label(
          labelW - 6,
          y0 + rowH / 2 + 4,
          "cat",
          "end",
          Text.cut(r.label(), 60) + (r.unit().isEmpty() ? "" : " (" + r.unit() + ")"));
      if (lo > hi) {
        svg.label(x0, y0 + rowH / 2 + 4, "tick", "start", "no value");
        continue;
      }
      double pad = hi > lo ? (hi - lo) * 0.08 : Math.max(Math.abs(lo) * 0.1, 1);
      // Counts and times are never negative: do not pad a non-negative row below zero.
      Axis x = Axis.linear(lo >= 0 ? Math.max(0, lo - pad) : lo - pad, hi + pad, x0, x1);
      svg.label(x0 - 4, y0 + rowH / 2 + 4, "tick", "end", Fmt.num(x.lo()));
      svg.label(x1 + 4, y0 + rowH / 2 + 4, "tick", "start", Fmt.num(x.hi()));
      svg.line(x0, y0 + rowH - 4, x1, y0 + rowH - 4, "grid");
      for (int k = 0; k < r.cells().size(); k++) {
        Cell c = r.cells().get(k);
        double y = y0 + 8 + k * sub;
        String color = Palette.color(k);
        if (c.lo() != null && c.hi() != null) {
          svg.el("rect")
              .a("class", "mark band")
              .a("x", x.px(c.lo()))
              .a("y", y - 4.5)
              .a("width", Math.max(1, x.px(c.hi()) - x.px(c.lo())))
              .a("height", 9)
              .title(columns.get(k) + " band " + Fmt.num(c.lo()) + " to " + Fmt.num(c.hi()))
              .end();
        }
        if (c.published() != null) {
          double px = x.px(c.published());
          svg.el("path")
              .a("class", "mark pub")
              .a(
                  "d",
                  "M" + Fmt.coord(px) + " " + Fmt.coord(y - 4.5) + "l4.5 4.5l-4.5 4.5l-4.5 -4.5z")
              .title(columns.get(k) + " published " + Fmt.num(c.published()))
              .end();
        }
        if (c.simulated() != null) {
          svg.el("circle")
              .a("class", "mark pt")
              .a("cx", x.px(c.simulated()))
              .a("cy", y)
              .a("r", 3.5)
              .a("fill", color)
              .title(columns.get(k) + " simulated " + Fmt.num(c.simulated()))
              .end();
        }
      }
    }
    double lx = labelW;
    for (int k = 0; k < columns.size(); k++) {
      svg.el("circle").a("cx", lx + 5).a("cy", 14).a("r", 3.5).a("fill", Palette.color(k)).end();
      svg.label(lx + 12, 18, "legend", "start", columns.get(k) + " simulated");
      lx += 30 + Text.width(columns.get(k) + " simulated");
    }
    svg.el("path")
        .a("class", "pub")
        .a("d", "M" + Fmt.coord(lx + 5) + " 9.5l4.5 4.5l-4.5 4.5l-4.5 -4.5z")
        .end();
    svg.label(lx + 14, 18, "legend", "start", "published");
    lx += 80;
    svg.el("rect").a("class", "band").a("x", lx).a("y", 9).a("width", 16).a("height", 9).end();
    svg.label(lx + 20, 18, "legend", "start", "accepted band");
    return new Chart("reproduction", title, svg.toString(), note);
  }
}
