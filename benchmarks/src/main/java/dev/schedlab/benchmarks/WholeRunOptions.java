package dev.schedlab.benchmarks;

/**
 * Command-line options of {@link WholeRunBenchmark}.
 *
 * @param seconds simulated seconds of the measured run
 * @param warmupRuns number of warm-up runs before measuring
 * @param warmupSeconds simulated seconds of each warm-up run
 * @param seed scenario seed
 * @param cpus CPUs of the machine (32, or a multiple of 64)
 * @param taskScale multiple of the 4 hogs and 4 sleepers per CPU
 * @param runs measured runs; the best (least CPU time) is reported
 */
record WholeRunOptions(
    double seconds,
    int warmupRuns,
    double warmupSeconds,
    long seed,
    int cpus,
    int taskScale,
    int runs) {
  static final String USAGE =
      "usage: WholeRunBenchmark [--seconds S (10)] [--warmup-runs N (1)]"
          + " [--warmup-seconds S (1)] [--seed N (1)] [--cpus N (128)]"
          + " [--task-scale K (1)] [--runs N (1)]";

  WholeRunOptions(double seconds, int warmupRuns, double warmupSeconds, long seed) {
    this(seconds, warmupRuns, warmupSeconds, seed, WholeRunScenario.CPUS, 1, 1);
  }

  static WholeRunOptions defaults() {
    return new WholeRunOptions(10, 1, 1, 1);
  }

  private WholeRunOptions with(String name, String v) {
    return switch (name) {
      case "--seconds" ->
          new WholeRunOptions(
              positive(name, v), warmupRuns, warmupSeconds, seed, cpus, taskScale, runs);
      case "--warmup-runs" ->
          new WholeRunOptions(
              seconds, Integer.parseInt(v), warmupSeconds, seed, cpus, taskScale, runs);
      case "--warmup-seconds" ->
          new WholeRunOptions(seconds, warmupRuns, positive(name, v), seed, cpus, taskScale, runs);
      case "--seed" ->
          new WholeRunOptions(
              seconds, warmupRuns, warmupSeconds, Long.parseLong(v), cpus, taskScale, runs);
      case "--cpus" ->
          new WholeRunOptions(
              seconds, warmupRuns, warmupSeconds, seed, Integer.parseInt(v), taskScale, runs);
      case "--task-scale" ->
          new WholeRunOptions(
              seconds, warmupRuns, warmupSeconds, seed, cpus, Integer.parseInt(v), runs);
      case "--runs" ->
          new WholeRunOptions(
              seconds, warmupRuns, warmupSeconds, seed, cpus, taskScale, Integer.parseInt(v));
      default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
    };
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
        o = o.with(name, v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(name + ": not a number: " + v, e);
      }
    }
    if (o.warmupRuns < 0) {
      throw new IllegalArgumentException("--warmup-runs must be >= 0, got " + o.warmupRuns);
    }
    if (o.runs < 1) {
      throw new IllegalArgumentException("--runs must be >= 1, got " + o.runs);
    }
    WholeRunScenario.build(1, o.seed, o.cpus, o.taskScale); // checks --cpus and --task-scale
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
