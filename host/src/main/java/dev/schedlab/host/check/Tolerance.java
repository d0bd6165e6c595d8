package dev.schedlab.host.check;

import java.util.Locale;

/**
 * How far a simulated figure may be from the real one: within a factor either way, or within an
 * absolute difference (for small counts, where a factor means little).
 *
 * @param factor largest allowed ratio simulated/real or real/simulated
 * @param absolute largest allowed |simulated - real| in the figure's unit, 0 for none
 */
public record Tolerance(double factor, double absolute) {
  static Tolerance factor(double f) {
    return new Tolerance(f, 0);
  }

  /** Whether {@code simulated} is close enough to {@code real}. */
  public boolean accepts(double real, double simulated) {
    if (Math.abs(simulated - real) <= absolute) {
      return true;
    }
    if (real <= 0 || simulated <= 0) {
      return false;
    }
    double r = simulated / real;
    return r <= factor && r >= 1 / factor;
  }

  /** Within a factor 2 either way (the project's outer bound for every figure). */
  public static boolean within2x(double real, double simulated) {
    return real > 0 && simulated > 0 && simulated / real <= 2 && real / simulated <= 2;
  }

  @Override
  public String toString() {
    String f = String.format(Locale.ROOT, "x%.2f", factor);
    return absolute > 0 ? f + " or +-" + trim(absolute) : f;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
  }
}
