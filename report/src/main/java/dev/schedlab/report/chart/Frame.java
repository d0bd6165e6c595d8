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
      svg.raw("<text class=\"axis-title\" text-anchor=\"middle\" transform=\"translate("
          + Fmt.coord(14) + " " + Fmt.coord((top + bottom) / 2) + ") rotate(-90)\">"
          + dev.schedlab.report.html.Html.esc(title) + "</text>");
    }
  }

  /** A legend row of colour swatches and names at the top right, from {@code x0}. */
  void legend(double x0, double y, java.util.List<String> names, java.util.List<String> colors) {
    double x = x0;
    for (int i = 0; i < names.size(); i++) {
      svg.el("rect").a("x", x).a("y", y - 9).a("width", 10).a("height", 10)
          .a("fill", colors.get(i)).a("class", "swatch").end();
      svg.label(x + 14, y, "legend", "start", names.get(i));
      x += 24 + Text.width(names.get(i));
    }
  }

  /** Plain number labels for ticks. */
  static String tick(double v) {
    return Fmt.num(v);
  }
}
