package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.List;

/** A value over two axes: one coloured cell per (x, y) level pair, the value written in it. */
public final class Heatmap {
  private static final double CELL_H = 26;

  private Heatmap() {}

  /**
   * The chart.
   *
   * @param title heading
   * @param xName name of the axis across
   * @param xs its levels
   * @param yName name of the axis down
   * @param ys its levels
   * @param values {@code values[y][x]}, NaN where no cell has a value
   * @param counts how many matrix cells each value is the mean of
   * @param lo value of the ramp's dark end
   * @param hi value of the ramp's bright end
   * @param note how to read it
   */
  public static Chart of(
      String title,
      String xName,
      List<String> xs,
      String yName,
      List<String> ys,
      double[][] values,
      int[][] counts,
      double lo,
      double hi,
      String note) {
    double labelW = Math.min(260, 14 + ys.stream().mapToDouble(Text::width).max().orElse(30));
    double cellW =
        Math.max(56, Math.min(140, 10 + xs.stream().mapToDouble(Text::width).max().orElse(30)));
    double top = 40;
    double width = Math.max(360, labelW + xs.size() * cellW + 20);
    double height = top + ys.size() * CELL_H + 46;
    Svg svg = new Svg(width, height, title);
    svg.label(labelW + xs.size() * cellW / 2, 14, "axis-title", "middle", xName);
    for (int i = 0; i < xs.size(); i++) {
      svg.label(
          labelW + (i + 0.5) * cellW,
          top - 8,
          "tick",
          "middle",
          Text.cut(xs.get(i), (int) (cellW / 6.2)));
    }
    svg.label(4, top - 8, "axis-title", "start", yName);
    for (int j = 0; j < ys.size(); j++) {
      double y = top + j * CELL_H;
      svg.label(labelW - 6, y + CELL_H / 2 + 4, "tick", "end", Text.cut(ys.get(j), 40));
      for (int i = 0; i < xs.size(); i++) {
        double v = values[j][i];
        double x = labelW + i * cellW;
        if (Double.isNaN(v)) {
          svg.el("rect")
              .a("x", x + 1)
              .a("y", y + 1)
              .a("width", cellW - 2)
              .a("height", CELL_H - 2)
              .a("fill", "#f0f0f0")
              .end();
          svg.label(x + cellW / 2, y + CELL_H / 2 + 4, "tick", "middle", "-");
          continue;
        }
        double f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
        svg.el("rect")
            .a("class", "mark hm")
            .a("x", x + 1)
            .a("y", y + 1)
            .a("width", cellW - 2)
            .a("height", CELL_H - 2)
            .a("fill", Palette.ramp(f))
            .title(
                xs.get(i)
                    + " / "
                    + ys.get(j)
                    + ": "
                    + Fmt.num(v)
                    + " (mean of "
                    + counts[j][i]
                    + " cell"
                    + (counts[j][i] == 1 ? "" : "s")
                    + ")")
            .end();
        svg.el("text")
            .a("class", "hm-text")
            .a("x", x + cellW / 2)
            .a("y", y + CELL_H / 2 + 4)
            .a("text-anchor", "middle")
            .a("style", "fill:" + (Palette.darkText(f) ? "#111" : "#fff"))
            .text(Fmt.num(Double.parseDouble(String.format(java.util.Locale.ROOT, "%.4g", v))));
      }
    }
    double ly = top + ys.size() * CELL_H + 14;
    for (int k = 0; k < 40; k++) {
      svg.el("rect")
          .a("x", labelW + k * 4)
          .a("y", ly)
          .a("width", 4)
          .a("height", 10)
          .a("fill", Palette.ramp(k / 39.0))
          .end();
    }
    svg.label(labelW - 4, ly + 9, "tick", "end", Fmt.num(lo));
    svg.label(labelW + 164, ly + 9, "tick", "start", Fmt.num(hi));
    return new Chart("heatmap", title, svg.toString(), note);
  }
}
