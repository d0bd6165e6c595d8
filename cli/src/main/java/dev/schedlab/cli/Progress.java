package dev.schedlab.cli;

import dev.schedlab.lab.experiment.Batch;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Locale;

/**
 * Progress on stderr: a redrawn bar with the wall time taken and an estimate of the time left when
 * stderr is a terminal, else one line per finished run. Silent with {@code quiet}.
 */
final class Progress implements Batch.Progress {
  private final PrintWriter err;
  private final boolean terminal;
  private final boolean quiet;
  private final String label;
  private final InstantSource clock;
  private final Instant start;

  // Java 17 (the project's release): System.console() is null unless stdin and stdout are a
  // terminal. On Java 22+ it is not null; there Console.isTerminal() would be needed.
  @SuppressWarnings("SystemConsoleNull")
  Progress(PrintWriter err, boolean quiet, String label, InstantSource clock) {
    this(err, quiet, label, clock, System.console() != null);
  }

  Progress(PrintWriter err, boolean quiet, String label, InstantSource clock, boolean terminal) {
    this.err = err;
    this.terminal = terminal;
    this.quiet = quiet;
    this.label = label;
    this.clock = clock;
    this.start = clock.instant();
  }

  @Override
  public void done(int finished, int total, Batch.Run run) {
    step(
        finished,
        total,
        "runs",
        String.format(
            Locale.ROOT,
            "run %d/%d done (%s, seed %d, %.3f s simulated)",
            finished,
            total,
            run.config(),
            run.seed(),
            run.simNs() / 1e9));
  }

  /**
   * {@code finished} of {@code total} {@code unit} are done: redraws the bar on a terminal, else
   * prints {@code line} after the label.
   */
  void step(int finished, int total, String unit, String line) {
    if (quiet) {
      return;
    }
    if (terminal) {
      int width = 30;
      int filled = total == 0 ? width : finished * width / total;
      err.printf(
          Locale.ROOT,
          "\r%s [%s%s] %d/%d %s%s\u001b[K",
          label,
          "=".repeat(filled),
          " ".repeat(width - filled),
          finished,
          total,
          unit,
          times(finished, total));
      if (finished == total) {
        err.println();
      }
    } else {
      err.println(label + ": " + line);
    }
    err.flush();
  }

  /** ", 1m20s, about 3m05s left" while running (time so far per item, times the items left). */
  private String times(int finished, int total) {
    Duration taken = Duration.between(start, clock.instant());
    if (finished == 0 || finished >= total) {
      return ", " + format(taken);
    }
    Duration left = taken.multipliedBy(total - finished).dividedBy(finished);
    return ", " + format(taken) + ", about " + format(left) + " left";
  }

  static String format(Duration d) {
    long s = Math.max(0, d.toSeconds());
    return s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }
}
