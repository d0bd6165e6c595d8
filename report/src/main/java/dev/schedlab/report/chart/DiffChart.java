package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.List;
import java.util.Locale;

/**
 * A forest plot of changes against a baseline: one row per metric, for each configuration a point
 * at its change in percent of the baseline mean and a whisker for the 95% confidence interval of
 * that difference. Changes past the axis end are drawn at the edge as a triangle.
 */
public final class DiffChart {
  private static final double WIDTH = 960;
  private static final double CAP = 100;

  /**
   * One configuration's change in one metric.
   *
   * @param change (mean / baseline mean - 1) x 100
   * @param ci half-width of the 95% CI of the difference, in % of the baseline mean
   */
  public record Point(double change, double ci) {}

  /**
   * One metric.
   *
   * @param label metric name
   * @param points one per configuration (same order as the configurations), null when undefined
   */
  public record Row(String label, List<Point> points) {}

  private DiffChart() {}

  /** The chart of {@code rows} for {@code configs} (the non-baseline configurations). */
  public static Chart of(String title, List<String> configs, List<Row> rows, String note) {
    double labelW =
        Math.min(330, 12 + rows.stream().mapToDouble(r -> Text.width(r.label())).max().orElse(60));
    double valueW = 16 + 62.0 * configs.size();
    double rowH = Math.max(16, 6 + 9.0 * configs.size());
    double top = 30;
    double height = top + rows.size() * rowH + 40;
    Svg svg = new Svg(WIDTH, height, title);
    Frame f = new Frame(svg, labelW, top, WIDTH - valueW, height - 40);
    double range = 0;
    for (Row r : rows) {
      for (Point p : r.points()) {
        if (p != null) {
          range = Math.max(range, Math.abs(p.change()) + p.ci());
        }
      }
    }
    range = Math.min(CAP, range == 0 ? 1 : range * 1.05);
    Axis x = Axis.linear(-range, range, f.left, f.right);
    f.xAxis(x, "change vs baseline (% of the baseline mean)", v -> Fmt.num(v) + "%");
    svg.line(x.px(0), f.top, x.px(0), f.bottom, "zero");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      double y0 = top + i * rowH;
      svg.label(labelW - 6, y0 + rowH / 2 + 4, "cat", "end", Text.cut(r.label(), 52));
      for (int k = 0; k < configs.size(); k++) {
        Point p = r.points().get(k);
        if (p == null) {
          continue;
        }
        String color = Palette.color(k + 1);
        double y = y0 + 7 + k * 9;
        double lo = Math.max(x.lo(), p.change() - p.ci());
        double hi = Math.min(x.hi(), p.change() + p.ci());
        String tip =
            configs.get(k)
                + ", "
                + r.label()
                + ": "
                + pct(p.change())
                + " \u00b1 "
                + Fmt.num(round(p.ci()))
                + "%";
        if (hi > lo) {
          svg.el("line")
              .a("class", "ci")
              .a("x1", x.px(lo))
              .a("y1", y)
              .a("x2", x.px(hi))
              .a("y2", y)
              .a("stroke", color)
              .end();
        }
        if (Math.abs(p.change()) <= range) {
          svg.el("circle")
              .a("class", "mark pt")
              .a("cx", x.px(p.change()))
              .a("cy", y)
              .a("r", 3.5)
              .a("fill", color)
              .title(tip)
              .end();
        } else {
          double ex = p.change() > 0 ? f.right : f.left;
          double dir = p.change() > 0 ? 1 : -1;
          svg.el("path")
              .a("class", "mark pt")
              .a("fill", color)
              .a(
                  "d",
                  "M" + Fmt.coord(ex) + " " + Fmt.coord(y) + "l" + Fmt.coord(-7 * dir) + " -4.5v9z")
              .title(tip)
              .end();
        }
        svg.el("text")
            .a("class", "val")
            .a("x", f.right + 12 + 62.0 * k)
            .a("y", y + 4)
            .a("style", "fill:" + color)
            .text(pct(p.change()));
      }
    }
    List<String> colors = configs.stream().map(c -> Palette.color(configs.indexOf(c) + 1)).toList();
    f.legend(labelW, 16, configs, colors);
    return new Chart("differences", title, svg.toString(), note);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  private static String pct(double v) {
    return String.format(Locale.ROOT, "%+.2f%%", v);
  }
}
