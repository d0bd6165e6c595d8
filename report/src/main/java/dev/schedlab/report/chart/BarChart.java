package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.List;

/** Horizontal bars: one group per category, one bar per series, each labelled with its value. */
public final class BarChart {
  private static final double WIDTH = 760;
  private static final double BAR = 13;

  private BarChart() {}

  /**
   * Bars of {@code values.get(series).get(category)}.
   *
   * @param kind chart kind
   * @param title heading
   * @param unit unit of the values (axis title)
   * @param categories category labels
   * @param series series names (a legend is drawn when there are several)
   * @param values per series, per category
   * @param note how to read the chart
   */
  public static Chart of(
      String kind,
      String title,
      String unit,
      List<String> categories,
      List<String> series,
      List<List<Value>> values,
      String note) {
    double labelW =
        Math.min(300, 12 + categories.stream().mapToDouble(Text::width).max().orElse(40));
    double group = series.size() * BAR + 8;
    double top = series.size() > 1 ? 28 : 10;
    double height = top + categories.size() * group + 40;
    Svg svg = new Svg(WIDTH, height, title);
    Frame f = new Frame(svg, labelW, top, WIDTH - 70, height - 40);
    double max = 0;
    for (List<Value> s : values) {
      for (Value v : s) {
        max = Math.max(max, v.v());
      }
    }
    Axis x = Axis.linear(0, max, f.left, f.right);
    f.xAxis(x, unit, Frame::tick);
    for (int c = 0; c < categories.size(); c++) {
      double y0 = top + c * group + 4;
      svg.label(labelW - 6, y0 + group / 2, "cat", "end", Text.cut(categories.get(c), 48));
      for (int s = 0; s < series.size(); s++) {
        Value v = values.get(s).get(c);
        double y = y0 + s * BAR;
        double w = Math.max(0, x.px(v.v()) - x.px(0));
        svg.el("rect")
            .a("class", "mark bar")
            .a("x", x.px(0))
            .a("y", y)
            .a("width", Math.max(w, 0.5))
            .a("height", BAR - 2)
            .a("fill", Palette.color(s))
            .title(series.get(s) + ", " + categories.get(c) + ": " + Fmt.num(v.v()))
            .end();
        svg.el("text")
            .a("class", "val")
            .a("x", x.px(0) + w + 4)
            .a("y", y + BAR - 4)
            .a("data-ptr", v.ptr())
            .text(Fmt.num(v.v()));
      }
    }
    if (series.size() > 1) {
      f.legend(
          labelW, 16, series, series.stream().map(s -> Palette.color(series.indexOf(s))).toList());
    }
    return new Chart(kind, title, svg.toString(), note);
  }
}
