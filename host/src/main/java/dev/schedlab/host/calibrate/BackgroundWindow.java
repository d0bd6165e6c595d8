package dev.schedlab.host.calibrate;

import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import java.util.List;
import java.util.Optional;

/** Two readings of the background counters, an idle window apart. */
@FunctionalInterface
interface BackgroundWindow {
  /** Nothing measured (tests, or a machine without /proc/softirqs). */
  BackgroundWindow NONE = seconds -> Optional.empty();

  /** Reads before and after {@code seconds} of doing nothing; empty when unreadable. */
  Optional<List<BackgroundSample>> measure(double seconds) throws HostException;

  /**
   * On the machine whose /proc is under {@code f}: the calling thread sleeps through the window.
   */
  static BackgroundWindow of(HostFiles f) {
    return seconds -> {
      Optional<BackgroundSample> before = BackgroundSample.read(f);
      if (before.isEmpty()) {
        return Optional.empty();
      }
      try {
        Thread.sleep(Math.round(seconds * 1000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new HostException("background measurement: interrupted", e);
      }
      return BackgroundSample.read(f).map(after -> List.of(before.get(), after));
    };
  }
}
