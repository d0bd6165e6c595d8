package dev.schedlab.lab.rtapp;

/**
 * Where and how an rt-app file asks its threads to log ({@code global.logdir}, {@code
 * log_basename}, {@code log_size}, {@code gnuplot}).
 *
 * @param enabled whether per-thread log files are written (rt-app: a {@code global} object whose
 *     {@code log_size} is not {@code "disable"})
 * @param logdir the directory as written; relative paths resolve against the working directory, as
 *     rt-app's {@code fopen()} does
 * @param basename file prefix: files are {@code BASENAME-THREAD.log}
 * @param ringRows with an integer {@code log_size} (MB), the rows the in-memory buffer holds (the
 *     oldest are lost); 0 = every row (the {@code "file"} and {@code "auto"} modes)
 * @param gnuplot also write the gnuplot scripts
 */
public record LogSpec(
    boolean enabled, String logdir, String basename, long ringRows, boolean gnuplot) {
  /** No log files. */
  public static final LogSpec NONE = new LogSpec(false, "./", "rt-app", 0, false);

  /**
   * rt-app's {@code timing_point_t}: an int, seven longs and three 64-bit times, padded: 88 bytes.
   */
  public static final int ROW_BYTES = 88;
}
