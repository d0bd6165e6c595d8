package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.List;

/** Stacked vertical columns, one per category (per-CPU busy and idle time, say). */
public final class ColumnChart {
  private static final double WIDTH = 760;
  private static final double HEIGHT = 240;

  private ColumnChart() {}

  /**
   * The chart.
   *
   * @param kind chart kind
   * @param title heading
   * @param unit display unit (axis title)
   * @param divisor input value / divisor = displayed value
   * @param categories one column each
   * @param series stacked from the bottom, in order
   * @param colors one per series
   * @param values per series, per category
   * @param note how to read it
   */
  public static Chart stacked(
      String kind,
      String title,
      String unit,
      double divisor,
      List<String> categories,
      List<String> series,
      List<String> colors,
      List<List<Value>> values,
      String note) {
    Svg svg = new Svg(WIDTH, HEIGHT, title);
    Frame f = new Frame(svg, 70, 28, WIDTH - 20, HEIGHT - 42);
    double max = 0;
    for (int c = 0; c < categories.size(); c++) {
      double sum = 0;
      for (List<Value> s : values) {
        sum += s.get(c).v() / divisor;
      }
      max = Math.max(max, sum);
    }
    Axis y = Axis.linear(0, max, f.bottom, f.top);
    f.yAxis(y, unit, Frame::tick);
    svg.line(f.left, f.bottom, f.right, f.bottom, "axis");
    double slot = (f.right - f.left) / Math.max(1, categories.size());
    int every = Math.max(1, (int) Math.ceil(categories.size() / 32.0));
    for (int c = 0; c < categories.size(); c++) {
      double x = f.left + c * slot;
      double base = 0;
      for (int s = 0; s < series.size(); s++) {
        double v = values.get(s).get(c).v() / divisor;
        svg.el("rect")
            .a("class", "mark col")
            .a("x", x + slot * 0.1)
            .a("y", y.px(base + v))
            .a("width", Math.max(0.5, slot * 0.8))
            .a("height", Math.max(0, y.px(base) - y.px(base + v)))
            .a("fill", colors.get(s))
            .title(categories.get(c) + " " + series.get(s) + ": " + Fmt.num(v) + " " + unit)
            .end();
        base += v;
      }
      if (c % every == 0) {
        svg.label(x + slot / 2, f.bottom + 14, "tick", "middle", categories.get(c));
      }
    }
    f.legend(f.left, 16, series, colors);
    return new Chart(kind, title, svg.toString(), note);
  }

  /** The default colours of {@code n} stacked series. */
  public static List<String> colors(int n) {
    return Palette.CATEGORICAL.subList(0, n);
  }
}
