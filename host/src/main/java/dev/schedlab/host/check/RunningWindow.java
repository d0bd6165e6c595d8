package dev.schedlab.host.check;

import dev.schedlab.host.Commands;
import dev.schedlab.host.HostException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A command started in the background and sampled twice while it runs, from {@link #SETTLE_S} s
 * after its start for a window of seconds: what the model, whose tasks neither start nor exit,
 * compares with. The command must run the window and {@link #SETTLE_S} s on either side ({@link
 * #runSeconds}), then end cleanly.
 */
final class RunningWindow {
  /** Seconds left out after the command's start and before its end. */
  static final int SETTLE_S = 1;

  /** Reads one sample of the running command; {@code T} is what it reads. */
  interface Sample<T> {
    T take(Process p) throws HostException;
  }

  /** The two samples and the seconds between them. */
  record Samples<T>(T before, T after, double seconds) {}

  private RunningWindow() {}

  /** How long the command must run for a window of {@code windowS} seconds. */
  static int runSeconds(int windowS) {
    return windowS + 2 * SETTLE_S;
  }

  /** Runs {@code argv}, samples it {@code windowS} seconds apart, and waits for its clean end. */
  static <T> Samples<T> measure(List<String> argv, int windowS, Sample<T> sample)
      throws HostException {
    String shown = String.join(" ", argv);
    Process p = Commands.background(argv);
    try {
      Thread.sleep(SETTLE_S * 1000L);
      T before = sample.take(p);
      long start = System.nanoTime();
      Thread.sleep(windowS * 1000L);
      T after = sample.take(p);
      double secs = (System.nanoTime() - start) / 1e9;
      if (!p.isAlive()) {
        throw new HostException(
            argv.get(0)
                + " ended before the measurement did (exit "
                + p.exitValue()
                + "): run `"
                + shown
                + "` to see why");
      }
      if (!p.waitFor(SETTLE_S + 60L, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new HostException(
            argv.get(0) + " did not end cleanly: run `" + shown + "` to see why");
      }
      return new Samples<>(before, after, secs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new HostException(argv.get(0) + ": interrupted", e);
    } finally {
      Commands.stop(p);
    }
  }
}
