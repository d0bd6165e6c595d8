package dev.schedlab.report;

import org.jspecify.annotations.Nullable;

/**
 * What the matrix heatmap shows.
 *
 * @param value the value (a summary column or any value of cells.jsonl), or null for the default
 * @param x the axis across (workload, machine, params, plugins or seed), or null for the default
 * @param y the axis down, or null for the default
 */
public record MatrixView(@Nullable String value, @Nullable String x, @Nullable String y) {
  /** Every choice left to the defaults. */
  public static final MatrixView DEFAULT = new MatrixView(null, null, null);
}
