package dev.schedlab.report.chart;

import java.util.ArrayList;
import java.util.List;

/**
 * A linear or logarithmic scale from a data range to a pixel range, with "nice" tick values (1, 2,
 * 5 times a power of ten; powers of ten on a log scale).
 */
public final class Axis {
  private final double lo;
  private final double hi;
  private final double p0;
  private final double p1;
  private final boolean log;

  private Axis(double lo, double hi, double p0, double p1, boolean log) {
    this.lo = lo;
    this.hi = hi;
    this.p0 = p0;
    this.p1 = p1;
    this.log = log;
  }

  /** A linear axis over [{@code lo}, {@code hi}] widened to nice ends, drawn from p0 to p1. */
  public static Axis linear(double lo, double hi, double p0, double p1) {
    if (!(hi > lo)) {
      double pad = lo == 0 ? 1 : Math.abs(lo) * 0.1;
      lo = lo == 0 ? 0 : lo - pad;
      hi = hi + pad;
    }
    double step = step(lo, hi);
    return new Axis(Math.floor(lo / step) * step, Math.ceil(hi / step) * step, p0, p1, false);
  }

  /** A log axis over [{@code lo}, {@code hi}] (both &gt; 0) widened to powers of ten. */
  public static Axis log(double lo, double hi, double p0, double p1) {
    double a = Math.floor(Math.log10(Math.max(lo, 1e-300)));
    double z = Math.ceil(Math.log10(Math.max(hi, lo)));
    if (z <= a) {
      z = a + 1;
    }
    return new Axis(Math.pow(10, a), Math.pow(10, z), p0, p1, true);
  }

  /** Log when the positive data span more than two decades, else linear from 0. */
  public static Axis auto(double min, double max, double p0, double p1) {
    if (min > 0 && max / min > 100) {
      return log(min, max, p0, p1);
    }
    return linear(Math.min(0, min), max, p0, p1);
  }

  private static double step(double lo, double hi) {
    double raw = (hi - lo) / 5;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double n = raw / mag;
    return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
  }

  /** The pixel of data value {@code v} (clamped to the axis range). */
  public double px(double v) {
    double f;
    if (log) {
      double c = Math.max(lo, Math.min(hi, v));
      f = (Math.log10(c) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
    } else {
      f = (Math.max(lo, Math.min(hi, v)) - lo) / (hi - lo);
    }
    return p0 + f * (p1 - p0);
  }

  /** Lower end of the range. */
  public double lo() {
    return lo;
  }

  /** Upper end of the range. */
  public double hi() {
    return hi;
  }

  /** Whether the scale is logarithmic. */
  public boolean isLog() {
    return log;
  }

  /** The tick values. */
  public List<Double> ticks() {
    List<Double> t = new ArrayList<>();
    if (log) {
      for (double v = lo; v <= hi * 1.0001; v *= 10) {
        t.add(v);
      }
      return t;
    }
    double step = step(lo, hi);
    for (int i = 0; lo + i * step <= hi + step * 1e-9; i++) {
      t.add(clean(lo + i * step, step));
    }
    return t;
  }

  private static double clean(double v, double step) {
    double r = Math.round(v / step) * step;
    return Math.abs(r) < step * 1e-9
        ? 0
        : Double.parseDouble(String.format(java.util.Locale.ROOT, "%.12g", r));
  }
}
