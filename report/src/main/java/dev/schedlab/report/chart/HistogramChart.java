package dev.schedlab.report.chart;

import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A latency histogram as the tool printed it (bucket i counts samples of i units): bars of all
 * series together, and each series' cumulative distribution (CDF) as a line on the right axis.
 */
public final class HistogramChart {
  private static final double WIDTH = 760;
  private static final double HEIGHT = 300;
  private static final int MAX_BARS = 200;

  /**
   * One histogram.
   *
   * @param name legend label
   * @param counts count per bucket, bucket i = values in [i, i+1) units
   */
  public record Series(String name, List<Long> counts) {}

  private HistogramChart() {}

  /** The chart, or null when every bucket is empty. */
  public static @Nullable Chart of(String title, String unit, List<Series> series, String note) {
    int first = Integer.MAX_VALUE;
    int last = -1;
    for (Series s : series) {
      for (int i = 0; i < s.counts().size(); i++) {
        if (s.counts().get(i) > 0) {
          first = Math.min(first, i);
          last = Math.max(last, i);
        }
      }
    }
    if (last < 0) {
      return null;
    }
    int width = Math.max(1, (int) Math.ceil((last - first + 1) / (double) MAX_BARS));
    int bars = (last - first) / width + 1;
    long[] sum = new long[bars];
    for (Series s : series) {
      for (int i = first; i <= last && i < s.counts().size(); i++) {
        sum[(i - first) / width] += s.counts().get(i);
      }
    }
    long peak = 0;
    for (long c : sum) {
      peak = Math.max(peak, c);
    }
    Svg svg = new Svg(WIDTH, HEIGHT, title);
    Frame f = new Frame(svg, 70, 28, WIDTH - 60, HEIGHT - 42);
    Axis x = Axis.linear(first, first + (double) bars * width, f.left, f.right);
    Axis y = Axis.linear(0, (double) peak, f.bottom, f.top);
    Axis cdf = Axis.linear(0, 100, f.bottom, f.top);
    f.xAxis(x, unit, Frame::tick);
    f.yAxis(y, "samples per " + (width == 1 ? "" : width + " ") + unit, Frame::tick);
    for (double t : cdf.ticks()) {
      svg.label(f.right + 5, cdf.px(t) + 4, "tick", "start", Fmt.num(t) + "%");
    }
    double bw = (x.px(first + width) - x.px(first));
    for (int b = 0; b < bars; b++) {
      if (sum[b] == 0) {
        continue;
      }
      double lo = first + (double) b * width;
      svg.el("rect")
          .a("class", "mark bar")
          .a("x", x.px(lo))
          .a("y", y.px((double) sum[b]))
          .a("width", Math.max(0.5, bw - (bw > 3 ? 1 : 0)))
          .a("height", y.px(0) - y.px((double) sum[b]))
          .a("fill", "#9ecae1")
          .title(
              Fmt.num(lo)
                  + (width == 1 ? "" : "-" + Fmt.num(lo + width - 1))
                  + " "
                  + unit
                  + ": "
                  + sum[b]
                  + " samples")
          .end();
    }
    List<String> names = new ArrayList<>(List.of("all (bars)"));
    List<String> colors = new ArrayList<>(List.of("#9ecae1"));
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      long total = s.counts().stream().mapToLong(Long::longValue).sum();
      if (total == 0) {
        continue;
      }
      StringBuilder d = new StringBuilder();
      long acc = 0;
      d.append('M').append(Fmt.coord(x.px(first))).append(' ').append(Fmt.coord(cdf.px(0)));
      for (int i = first; i <= last; i++) {
        acc += i < s.counts().size() ? s.counts().get(i) : 0;
        d.append('L')
            .append(Fmt.coord(x.px(i + 1.0)))
            .append(' ')
            .append(Fmt.coord(cdf.px(100.0 * acc / total)));
      }
      String color = Palette.color(k);
      svg.el("path")
          .a("class", "mark line")
          .a("d", d.toString())
          .a("stroke", color)
          .title(s.name() + ": CDF of " + total + " samples")
          .end();
      if (names.size() < 11) {
        names.add(Text.cut(s.name(), 20) + " CDF");
        colors.add(color);
      }
    }
    f.legend(f.left, 16, names, colors);
    return new Chart("histogram", title, svg.toString(), note);
  }
}
