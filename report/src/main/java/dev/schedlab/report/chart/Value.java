package dev.schedlab.report.chart;

import org.jspecify.annotations.Nullable;

/**
 * A number drawn or printed in the page, with where it comes from.
 *
 * @param v the value
 * @param ptr JSON Pointer of the value in the embedded input JSON, or null for a derived value
 */
public record Value(double v, @Nullable String ptr) {
  /** A derived value (computed from others; not a field of the input). */
  public static Value derived(double v) {
    return new Value(v, null);
  }
}
