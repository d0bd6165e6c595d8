package dev.schedlab.host;

import java.util.Locale;
import java.util.Optional;

/**
 * The machine's one-minute load average ({@code /proc/loadavg}), to warn before measuring: other
 * work competes with the micro-benchmarks and the real tools and shows in their figures as noise
 * and latency that the machine does not have on its own.
 */
public final class LoadAverage {
  private LoadAverage() {}

  /**
   * A warning when more tasks than {@code nrCpus} were runnable or waiting on average over the last
   * minute, else empty (also when {@code /proc/loadavg} cannot be read).
   */
  public static Optional<String> busyWarning(HostFiles files, int nrCpus) {
    Optional<String> text = files.text("/proc/loadavg");
    if (text.isEmpty()) {
      return Optional.empty();
    }
    double load;
    try {
      load = Double.parseDouble(text.get().trim().split("\\s+", -1)[0]);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (load < nrCpus) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "warning: load average %.2f over the last minute on %d CPUs: other work competes with"
                + " the measurements and shows in them as noise and latency; measure on a quiet"
                + " machine",
            load,
            nrCpus));
  }
}
