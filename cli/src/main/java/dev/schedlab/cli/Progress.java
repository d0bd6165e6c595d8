package dev.schedlab.cli;

import dev.schedlab.lab.experiment.Batch;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress on stderr: a redrawn bar when stderr is a terminal, else one line per finished run.
 * Silent with {@code quiet}.
 */
final class Progress implements Batch.Progress {
  private final PrintWriter err;
  private final boolean terminal;
  private final boolean quiet;
  private final String label;

  Progress(PrintWriter err, boolean quiet, String label) {
    this.err = err;
    this.terminal = System.console() != null;
    this.quiet = quiet;
    this.label = label;
  }

  @Override
  public void done(int finished, int total, Batch.Run run) {
    step(finished, total, "runs", String.format(Locale.ROOT, "run %d/%d done (%s, seed %d, %.3f s simulated)",
        finished, total, run.config(), run.seed(), run.simNs() / 1e9));
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
      err.printf(Locale.ROOT, "\r%s [%s%s] %d/%d %s", label, "=".repeat(filled),
          " ".repeat(width - filled), finished, total, unit);
      if (finished == total) {
        err.println();
      }
    } else {
      err.println(label + ": " + line);
    }
    err.flush();
  }
}
