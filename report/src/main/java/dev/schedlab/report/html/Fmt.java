package dev.schedlab.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Number formatting for the page: locale-independent, so the same input gives the same bytes on any
 * machine. Integers print exactly; other values to six significant digits.
 */
public final class Fmt {
  private Fmt() {}

  /** {@code v} exactly when whole, else to six significant digits; "n/a" for NaN or infinity. */
  public static String num(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "n/a";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    BigDecimal d = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros();
    return d.toPlainString();
  }

  /** A JSON number as the page shows it: integers exactly, others as {@link #num(double)}. */
  public static String json(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return "-";
    }
    if (n.isIntegralNumber()) {
      return n.asText();
    }
    if (n.isNumber()) {
      return num(n.asDouble());
    }
    return n.asText();
  }

  /** An SVG coordinate: at most two decimals, no trailing zeros. */
  public static String coord(double v) {
    long hundredths = Math.round(v * 100);
    if (hundredths % 100 == 0) {
      return Long.toString(hundredths / 100);
    }
    String s = String.format(Locale.ROOT, "%.2f", hundredths / 100.0);
    return s.endsWith("0") ? s.substring(0, s.length() - 1) : s;
  }

  /** A duration in ns as a short human string (ns, us, ms or s). */
  public static String duration(double ns) {
    double a = Math.abs(ns);
    if (a >= 1e9) {
      return num(round3(ns / 1e9)) + " s";
    }
    if (a >= 1e6) {
      return num(round3(ns / 1e6)) + " ms";
    }
    if (a >= 1e3) {
      return num(round3(ns / 1e3)) + " us";
    }
    return num(ns) + " ns";
  }

  private static double round3(double v) {
    return new BigDecimal(v).round(new MathContext(4)).doubleValue();
  }
}
