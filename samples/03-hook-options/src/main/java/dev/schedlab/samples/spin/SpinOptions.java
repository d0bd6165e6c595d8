package dev.schedlab.samples.spin;

import dev.schedlab.api.plugin.PluginOptions;
import java.util.Set;

/**
 * The options of {@code sample-spin}, with their defaults.
 *
 * @param limitNs {@code limit}: how long a task spins before it sleeps, ns (default 50 us)
 * @param kthreads {@code kthreads}: whether kernel threads spin too (default false)
 */
record SpinOptions(long limitNs, boolean kthreads) {
  static final Set<String> KEYS = Set.of("limit", "kthreads");

  SpinOptions {
    if (limitNs <= 0 || limitNs > 10_000_000L) {
      throw new IllegalArgumentException(
          "plugin sample-spin: option 'limit' must be above 0 and at most 10ms, got "
              + limitNs
              + " ns");
    }
  }

  static SpinOptions parse(PluginOptions o) {
    return new SpinOptions(o.getDurationNs("limit", 50_000L), o.getBoolean("kthreads", false));
  }
}
