package dev.schedlab.report.timeline;

import dev.schedlab.report.chart.Chart;
import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Palette;
import dev.schedlab.report.html.Svg;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Draws a {@link Timeline}: one row per CPU, task slices coloured by task group, idle states in
 * greys (lighter = deeper), interrupts as red ticks in a lane under each row. A slice is an element
 * of class {@code slice task|idle|irq}; a downsampled timeline draws one path per colour instead.
 */
public final class TimelineChart {
  private static final double WIDTH = 960;
  private static final double LEFT = 58;
  private static final double RIGHT = 24;

  private TimelineChart() {}

  /** The chart of {@code t} (finished). */
  public static Chart of(Timeline t) {
    int cpus = t.nrCpus();
    double row = Math.max(4, Math.min(18, 640.0 / cpus));
    double top = 34;
    double height = top + cpus * row + 40;
    String title = "Per-CPU timeline";
    Svg svg = new Svg(WIDTH, height, title);
    double plotW = WIDTH - LEFT - RIGHT;
    double scale = plotW / Math.max(1, t.end());
    double band = Math.max(2, Math.round(row * 0.7));
    double lane = Math.max(1, row - band - 1);
    for (int c = 0; c < cpus; c++) {
      if (cpus <= 32 || c % Math.max(1, cpus / 16) == 0) {
        svg.label(LEFT - 6, top + c * row + band - 1, "tick", "end", "CPU " + c);
      }
    }
    axis(svg, t.end(), top + cpus * row + 2, plotW);
    String note;
    if (!t.downsampled()) {
      for (Timeline.Slice s : t.slices()) {
        double x = LEFT + s.start() * scale;
        double y = top + s.cpu() * row;
        switch (s.kind()) {
          case TASK ->
              svg.el("rect")
                  .a("class", "mark slice task")
                  .a("x", x)
                  .a("y", y)
                  .a("width", Math.max(0.3, (s.end() - s.start()) * scale))
                  .a("height", band)
                  .a("fill", Palette.color(s.category()))
                  .title(
                      s.label()
                          + " on CPU "
                          + s.cpu()
                          + ": "
                          + seconds(s.start())
                          + " s, "
                          + Fmt.duration((double) (s.end() - s.start())))
                  .end();
          case IDLE ->
              svg.el("rect")
                  .a("class", "mark slice idle")
                  .a("x", x)
                  .a("y", y)
                  .a("width", Math.max(0.3, (s.end() - s.start()) * scale))
                  .a("height", band)
                  .a("fill", Palette.idle(s.category(), t.maxIdleState() + 1))
                  .title(
                      "CPU "
                          + s.cpu()
                          + " in idle state "
                          + s.category()
                          + ": "
                          + seconds(s.start())
                          + " s, "
                          + Fmt.duration((double) (s.end() - s.start())))
                  .end();
          case IRQ ->
              svg.el("rect")
                  .a("class", "mark slice irq")
                  .a("x", x - 0.4)
                  .a("y", y + band + 1)
                  .a("width", 0.8)
                  .a("height", lane)
                  .a("fill", Palette.IRQ)
                  .title(s.label() + " on CPU " + s.cpu() + " at " + seconds(s.start()) + " s")
                  .end();
          default -> throw new IllegalStateException();
        }
      }
      note =
          "Every slice of the trace is drawn (hover for task, CPU, start and length): "
              + t.count(Timeline.Kind.TASK)
              + " task slices, "
              + t.count(Timeline.Kind.IDLE)
              + " idle-state slices, "
              + t.count(Timeline.Kind.IRQ)
              + " interrupts.";
    } else {
      drawBins(svg, t, top, row, band, lane, scale);
      Bins b = Objects.requireNonNull(t.bins()); // downsampled
      note =
          "Downsampled: "
              + t.count(Timeline.Kind.TASK)
              + " task slices, "
              + t.count(Timeline.Kind.IDLE)
              + " idle-state slices and "
              + t.count(Timeline.Kind.IRQ)
              + " interrupts are too many to draw one by one; each CPU's time is cut into columns of "
              + Fmt.duration((double) b.width())
              + ", each coloured by what ran longest in it; a red tick marks"
              + " a column with at least one interrupt.";
    }
    legend(svg, t);
    return new Chart("timeline", title, svg.toString(), note);
  }

  private static void drawBins(
      Svg svg, Timeline t, double top, double row, double band, double lane, double scale) {
    Bins b = Objects.requireNonNull(t.bins()); // drawn only when downsampled
    double colW = b.width() * scale;
    List<StringBuilder> paths = new ArrayList<>();
    for (int k = 0; k < Bins.TASK_COLORS + Bins.IDLE_STATES; k++) {
      paths.add(new StringBuilder());
    }
    StringBuilder irq = new StringBuilder();
    for (int c = 0; c < t.nrCpus(); c++) {
      double y = top + c * row;
      int col = 0;
      while (col < b.columns()) {
        int cat = b.dominant(c, col);
        int endCol = col + 1;
        while (endCol < b.columns() && b.dominant(c, endCol) == cat) {
          endCol++;
        }
        if (cat >= 0) {
          segment(paths.get(cat), LEFT + col * colW, y, (endCol - col) * colW, band);
        }
        col = endCol;
      }
      col = 0;
      while (col < b.columns()) {
        if (b.irqs(c, col) == 0) {
          col++;
          continue;
        }
        int endCol = col + 1;
        while (endCol < b.columns() && b.irqs(c, endCol) > 0) {
          endCol++;
        }
        segment(irq, LEFT + col * colW, y + band + 1, Math.max(0.8, (endCol - col) * colW), lane);
        col = endCol;
      }
    }
    for (int k = 0; k < paths.size(); k++) {
      if (paths.get(k).length() == 0) {
        continue;
      }
      boolean task = k < Bins.TASK_COLORS;
      int idle = k - Bins.TASK_COLORS;
      svg.el("path")
          .a("class", task ? "mark cols task" : "mark cols idle")
          .a("d", paths.get(k).toString())
          .a("fill", task ? Palette.color(k) : Palette.idle(idle, t.maxIdleState() + 1))
          .title(
              task
                  ? "tasks coloured " + (k + 1)
                  : "idle state " + idle + (idle == Bins.IDLE_STATES - 1 ? " or deeper" : ""))
          .end();
    }
    if (irq.length() > 0) {
      svg.el("path")
          .a("class", "mark cols irq")
          .a("d", irq.toString())
          .a("fill", Palette.IRQ)
          .title("columns with interrupts")
          .end();
    }
  }

  private static void segment(StringBuilder d, double x, double y, double w, double h) {
    d.append('M')
        .append(Fmt.coord(x))
        .append(' ')
        .append(Fmt.coord(y))
        .append('h')
        .append(Fmt.coord(w))
        .append('v')
        .append(Fmt.coord(h))
        .append('h')
        .append(Fmt.coord(-w))
        .append('z');
  }

  private static void axis(Svg svg, long end, double y, double plotW) {
    double ms = end / 1e6;
    double raw = ms / 8;
    double mag = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-6))));
    double n = raw / mag;
    double step = (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
    svg.line(LEFT, y, LEFT + plotW, y, "axis");
    for (int i = 0; i * step <= ms * (1 + 1e-9); i++) {
      double x = LEFT + plotW * (i * step) / Math.max(ms, 1e-9);
      svg.line(x, y, x, y + 4, "axis");
      svg.label(
          x,
          y + 15,
          "tick",
          "middle",
          Fmt.num(Double.parseDouble(String.format(Locale.ROOT, "%.9g", i * step))));
    }
    svg.label(LEFT + plotW / 2, y + 31, "axis-title", "middle", "simulated time (ms)");
  }

  private static void legend(Svg svg, Timeline t) {
    double x = LEFT;
    List<String> groups = t.groups();
    int shown = Math.min(groups.size(), Bins.TASK_COLORS);
    for (int g = 0; g < shown; g++) {
      x =
          swatch(
              svg,
              x,
              Palette.color(g),
              groups.get(g)
                  + (groups.size() > Bins.TASK_COLORS && g == shown - 1
                      ? " (colours repeat)"
                      : ""));
    }
    for (int s = 0; s <= t.maxIdleState() && s < Bins.IDLE_STATES; s++) {
      x = swatch(svg, x, Palette.idle(s, t.maxIdleState() + 1), "idle " + s);
    }
    swatch(svg, x, Palette.IRQ, "interrupt");
  }

  private static double swatch(Svg svg, double x, String color, String name) {
    if (x > WIDTH - 80) {
      return x;
    }
    svg.el("rect")
        .a("x", x)
        .a("y", 10)
        .a("width", 10)
        .a("height", 10)
        .a("fill", color)
        .a("class", "swatch")
        .end();
    svg.label(x + 13, 19, "legend", "start", name);
    return x + 22 + name.length() * 6.2;
  }

  private static String seconds(long ns) {
    return String.format(Locale.ROOT, "%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L);
  }
}
