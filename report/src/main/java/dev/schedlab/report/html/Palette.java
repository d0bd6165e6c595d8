package dev.schedlab.report.html;

import java.util.List;

/** The colours of the charts: a categorical palette and a sequential ramp for heatmaps. */
public final class Palette {
  /** Ten distinguishable colours (Tableau 10), used in order for series and task groups. */
  public static final List<String> CATEGORICAL =
      List.of(
          "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
          "#9c755f", "#bab0ac");

  /** Interrupts on the timeline. */
  public static final String IRQ = "#222222";

  private Palette() {}

  /** The {@code i}-th categorical colour, cycling. */
  public static String color(int i) {
    return CATEGORICAL.get(Math.floorMod(i, CATEGORICAL.size()));
  }

  /** Idle state {@code index} of {@code count}: lighter greys for deeper states. */
  public static String idle(int index, int count) {
    int n = Math.max(1, count - 1);
    int level = 150 + (int) Math.round(85.0 * Math.min(index, n) / n);
    return String.format("#%02x%02x%02x", level, level, level);
  }

  /** A point of the viridis-like ramp for {@code f} in [0, 1] (dark blue to yellow). */
  public static String ramp(double f) {
    double[][] stops = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    double x = Math.max(0, Math.min(1, Double.isNaN(f) ? 0 : f)) * (stops.length - 1);
    int i = Math.min(stops.length - 2, (int) Math.floor(x));
    double t = x - i;
    int[] c = new int[3];
    for (int k = 0; k < 3; k++) {
      c[k] = (int) Math.round(stops[i][k] + (stops[i + 1][k] - stops[i][k]) * t);
    }
    return String.format("#%02x%02x%02x", c[0], c[1], c[2]);
  }

  /** Whether text on {@code ramp(f)} should be dark (light background). */
  public static boolean darkText(double f) {
    return f > 0.6;
  }
}
