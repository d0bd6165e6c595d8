package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Svg;
import java.util.function.DoubleFunction;

/** The plot area of a chart inside its drawing, with helpers for axes, grid lines and labels. */
final class Frame {
  final Svg svg;
  final double left;
  final double top;
  final double right;
  final double bottom;

  Frame(Svg svg, double left, double top, double right, double bottom) {
    this.svg = svg;
    this.left = left;
    this.top = top;
    this.right = right;
    this.bottom = bottom;
  }

  /** Ticks, grid lines and a title for a horizontal axis at the bottom. */
  void xAxis(Axis x, String title, DoubleFunction<String> fmt) {
    for (double t : x.ticks()) {
      double px = x.px(t);
      svg.line(px, top, px, bottom, "grid");
      svg.label(px, bottom + 14, "tick", "middle", fmt.apply(t));
    }
    svg.line(left, bottom, right, bottom, "axis");
    if (title != null) {
      svg.label((left + right) / 2, bottom + 30, "axis-title", "middle", title);
    }
  }

  /** Ticks, grid lines and a title for a vertical axis on the left. */
  void yAxis(Axis y, String title, DoubleFunction<String> fmt) {
    for (double t : y.ticks()) {
      double py = y.px(t);
      svg.line(left, py, right, py, "grid");
      svg.label(left - 5, py + 4, "tick", "end", fmt.apply(t));
    }
    svg.line(left, top, left, bottom, "axis");
    if (title != null) {
      svg.raw(
          "<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate("
              + Fmt.coord(14)
              + " "
              + Fmt.coord((top + bottom) / 2)
              + ") rotate(-90)\">"
              + dev.schedlab.report.html.Html.esc(title)
              + "</text>");
    }
  }

  /** A legend row of colour swatches and names at the top right, from {@code x0}. */
  void legend(double x0, double y, java.util.List<String> names, java.util.List<String> colors) {
    double x = x0;
    for (int i = 0; i < names.size(); i++) {
      String name = Text.cut(names.get(i), 32);
      if (x + 24 + Text.width(name) > svg.width() - 70 && i < names.size() - 1) {
        // no room for the rest: say how many lines the legend leaves out (their tooltips name them)
        svg.label(x, y, "legend", "start", "+" + (names.size() - i) + " more");
        return;
      }
      svg.el("rect")
          .a("x", x)
          .a("y", y - 9)
          .a("width", 10)
          .a("height", 10)
          .a("fill", colors.get(i))
          .a("class", "swatch")
          .end();
      svg.label(x + 14, y, "legend", "start", name);
      x += 24 + Text.width(name);
    }
  }

  /** Plain number labels for ticks. */
  static String tick(double v) {
    return Fmt.num(v);
  }
}
