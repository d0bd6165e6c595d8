package dev.schedlab.benchmarks;

/**
 * Command-line options of {@link WholeRunBenchmark}.
 *
 * @param seconds simulated seconds of the measured run
 * @param warmupRuns number of warm-up runs before measuring
 * @param warmupSeconds simulated seconds of each warm-up run
 * @param baselineSeconds simulated seconds of the short run whose allocation is subtracted to get
 *     steady-state bytes/event
 * @param seed scenario seed
 */
record WholeRunOptions(
    double seconds, int warmupRuns, double warmupSeconds, double baselineSeconds, long seed) {
  static final String USAGE = "usage: WholeRunBenchmark [--seconds S (10)] [--warmup-runs N (1)]"
      + " [--warmup-seconds S (1)] [--baseline-seconds S (0.1)] [--seed N (1)]";

  static WholeRunOptions defaults() {
    return new WholeRunOptions(10, 1, 1, 0.1, 1);
  }

  /** Parses {@code args}; throws IllegalArgumentException naming the bad option. */
  static WholeRunOptions parse(String... args) {
    WholeRunOptions o = defaults();
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(name + " needs a value; " + USAGE);
      }
      String v = args[++i];
      try {
        o = switch (name) {
          case "--seconds" -> new WholeRunOptions(positive(name, v), o.warmupRuns, o.warmupSeconds,
              o.baselineSeconds, o.seed);
          case "--warmup-runs" -> new WholeRunOptions(o.seconds, Integer.parseInt(v),
              o.warmupSeconds, o.baselineSeconds, o.seed);
          case "--warmup-seconds" -> new WholeRunOptions(o.seconds, o.warmupRuns,
              positive(name, v), o.baselineSeconds, o.seed);
          case "--baseline-seconds" -> new WholeRunOptions(o.seconds, o.warmupRuns,
              o.warmupSeconds, positive(name, v), o.seed);
          case "--seed" -> new WholeRunOptions(o.seconds, o.warmupRuns, o.warmupSeconds,
              o.baselineSeconds, Long.parseLong(v));
          default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
        };
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ": not a number: " + v, e);
      }
    }
    if (o.warmupRuns < 0) {
      throw new IllegalArgumentException("--warmup-runs must be >= 0, got " + o.warmupRuns);
    }
    return o;
  }

  private static double positive(String name, String v) {
    double d = Double.parseDouble(v);
    if (!(d > 0)) {
      throw new IllegalArgumentException(name + " must be > 0, got " + v);
    }
    return d;
  }

  /** Seconds to whole nanoseconds. */
  static long ns(double seconds) {
    return Math.round(seconds * 1e9);
  }
}
