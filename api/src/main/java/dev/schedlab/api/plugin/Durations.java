package dev.schedlab.api.plugin;

/** Parses durations written as {@code 100us}, {@code 1.5ms}, {@code 10s} or plain nanoseconds. */
public final class Durations {
  private Durations() {}

  /** Nanoseconds of {@code text}; {@code what} names the field in the error message. */
  public static long parseNs(String text, String what) {
    String t = text.trim();
    long unit = 1;
    String num = t;
    if (t.endsWith("ns")) {
      num = t.substring(0, t.length() - 2);
    } else if (t.endsWith("us")) {
      unit = 1_000;
      num = t.substring(0, t.length() - 2);
    } else if (t.endsWith("ms")) {
      unit = 1_000_000;
      num = t.substring(0, t.length() - 2);
    } else if (t.endsWith("s")) {
      unit = 1_000_000_000;
      num = t.substring(0, t.length() - 1);
    }
    try {
      double v = Double.parseDouble(num.trim());
      if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
        throw new NumberFormatException();
      }
      return Math.round(v * unit);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          what + ": expected a duration such as 100us, 2ms or 10s, got '" + text + "'");
    }
  }
}
