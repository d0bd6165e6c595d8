package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.ArrayList;
import java.util.List;

/**
 * Latency against percentile on a "nines" scale (the HdrHistogram percentile plot: 50 %, 90 %, 99
 * %, 99.9 % evenly spaced), one line per series: the CDF read sideways, tail visible.
 */
public final class PercentileChart {
  private static final double WIDTH = 760;
  private static final double HEIGHT = 300;

  /**
   * One known point of a distribution.
   *
   * @param pct the percentile, 0 for the minimum, 100 for the maximum
   * @param v the value (in the input's unit)
   */
  public record Point(double pct, Value v) {}

  /**
   * One distribution.
   *
   * @param name legend label
   * @param points its known points, any order
   */
  public record Series(String name, List<Point> points) {}

  private PercentileChart() {}

  /** The nines position of percentile {@code pct} below 100: -log10(1 - pct/100). */
  static double nines(double pct) {
    return -Math.log10(1 - pct / 100.0);
  }

  /**
   * The chart.
   *
   * @param title heading
   * @param unit display unit (axis title)
   * @param divisor input value / divisor = displayed value (1000 for ns shown in us)
   * @param series the distributions
   * @param note how to read it
   */
  public static Chart of(
      String title, String unit, double divisor, List<Series> series, String note) {
    double top = 28;
    Svg svg = new Svg(WIDTH, HEIGHT, title);
    Frame f = new Frame(svg, 70, top, WIDTH - 20, HEIGHT - 42);
    double finite = 1;
    double min = Double.MAX_VALUE;
    double max = 0;
    for (Series s : series) {
      for (Point p : s.points()) {
        if (p.pct() < 100) {
          finite = Math.max(finite, nines(p.pct()));
        }
        min = Math.min(min, p.v().v() / divisor);
        max = Math.max(max, p.v().v() / divisor);
      }
    }
    double maxPos = Math.ceil(finite - 1e-9) + 1;
    Axis x = Axis.linear(0, maxPos, f.left, f.right);
    Axis y = Axis.auto(min == Double.MAX_VALUE ? 0 : min, max, f.bottom, f.top);
    f.yAxis(y, unit, Frame::tick);
    List<double[]> ticks =
        new ArrayList<>(List.of(new double[] {0, 0}, new double[] {nines(50), 50}));
    for (int k = 1; k < maxPos; k++) {
      ticks.add(new double[] {k, 100 - 100 * Math.pow(10, -k)});
    }
    for (double[] t : ticks) {
      double px = x.px(t[0]);
      svg.line(px, f.top, px, f.bottom, "grid");
      svg.label(px, f.bottom + 14, "tick", "middle", t[0] == 0 ? "min" : Fmt.num(t[1]) + "%");
    }
    svg.line(x.px(maxPos), f.top, x.px(maxPos), f.bottom, "grid");
    svg.label(x.px(maxPos), f.bottom + 14, "tick", "middle", "max");
    svg.line(f.left, f.bottom, f.right, f.bottom, "axis");
    svg.label((f.left + f.right) / 2, f.bottom + 30, "axis-title", "middle", "percentile");
    List<String> names = new ArrayList<>();
    List<String> colors = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      Series s = series.get(i);
      List<Point> pts = new ArrayList<>(s.points());
      pts.sort((a, b) -> Double.compare(a.pct(), b.pct()));
      StringBuilder d = new StringBuilder();
      String color = Palette.color(i);
      for (Point p : pts) {
        double px = x.px(p.pct() >= 100 ? maxPos : nines(p.pct()));
        double py = y.px(p.v().v() / divisor);
        d.append(d.length() == 0 ? "M" : "L")
            .append(Fmt.coord(px))
            .append(' ')
            .append(Fmt.coord(py));
      }
      svg.el("path").a("class", "mark line").a("d", d.toString()).a("stroke", color).end();
      for (Point p : pts) {
        double px = x.px(p.pct() >= 100 ? maxPos : nines(p.pct()));
        svg.el("circle")
            .a("class", "mark pt")
            .a("cx", px)
            .a("cy", y.px(p.v().v() / divisor))
            .a("r", 3)
            .a("fill", color)
            .title(
                s.name() + " " + label(p.pct()) + ": " + Fmt.num(p.v().v() / divisor) + " " + unit)
            .end();
      }
      names.add(s.name());
      colors.add(color);
    }
    f.legend(f.left, 16, names, colors);
    return new Chart("percentiles", title, svg.toString(), note);
  }

  private static String label(double pct) {
    return pct <= 0 ? "min" : pct >= 100 ? "max" : "p" + Fmt.num(pct);
  }
}
