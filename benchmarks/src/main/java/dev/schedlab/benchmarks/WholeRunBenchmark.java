package dev.schedlab.benchmarks;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * Whole-run throughput and allocation of the engine on {@link WholeRunScenario} (not JMH: one run
 * is seconds long and single-threaded, so a plain main with warm-up runs is enough).
 *
 * <p>It runs {@code --warmup-runs} runs of {@code --warmup-seconds}, then a baseline run of {@code
 * --baseline-seconds} (by default half of {@code --seconds}: the same scenario and seed, so the
 * measured run's first half, event for event) and the measured run of {@code --seconds}, each on
 * the current thread. Reported: simulated seconds per wall second and events per wall second (wall
 * time of the event loop, as {@link RunResult#wallNs()}), bytes allocated per event over the whole
 * run including set-up ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes}
 * before/after {@link Simulation#run}), and steady-state bytes per event = (bytes(measured) -
 * bytes(baseline)) / (events(measured) - events(baseline)): what the measured run allocated after
 * its first half, set-up cancelled. Also the thread's CPU time of the run and CPU ns per event: on
 * a shared machine wall time also counts the time other processes had the core, CPU time much less
 * so. With {@code --runs N} the measured run is repeated and the one with the least CPU time is
 * reported (best of N).
 *
 * <p>HOW TO RUN: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.schedlab.benchmarks.WholeRunBenchmark --seconds 10}. Exit codes: 0 ok, 1 the run failed, 2
 * bad arguments, 3 the engine cannot run the scenario in this build (plugin host missing).
 */
public final class WholeRunBenchmark {
  static final String NOT_READY =
      "WholeRunBenchmark: cannot get the built-in extensions:"
          + " PluginHost.open(null).extensionsFor(List.of()) threw UnsupportedOperationException (%s)."
          + " The plugin host is not implemented in this build; the whole-run benchmark needs the"
          + " built-in scheduling classes, preemption models and idle policies it provides."
          + " Rebuild once the plugin host work is merged.";

  private final com.sun.management.ThreadMXBean threads;

  private WholeRunBenchmark(com.sun.management.ThreadMXBean threads) {
    this.threads = threads;
  }

  /** Entry point; see the class comment for options and exit codes. */
  public static void main(String[] args) {
    WholeRunOptions options;
    try {
      options = WholeRunOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("WholeRunBenchmark: " + e.getMessage());
      System.exit(2);
      return;
    }
    try {
      System.exit(run(options));
    } catch (IllegalStateException e) {
      System.err.println("WholeRunBenchmark: " + e.getMessage());
      System.exit(1);
    }
  }

  static int run(WholeRunOptions o) {
    WholeRunBenchmark bench = new WholeRunBenchmark(allocationCounter());
    PluginHost host;
    try {
      host = PluginHost.open(null);
    } catch (UnsupportedOperationException e) {
      System.err.println(String.format(Locale.ROOT, NOT_READY, e.getMessage()));
      return 3;
    }
    try (host) {
      Extensions ext = host.extensionsFor(List.of());
      for (int i = 0; i < o.warmupRuns(); i++) {
        Sample w = bench.measure(scenario(o, o.warmupSeconds()), ext);
        System.out.printf(
            Locale.ROOT,
            "warm-up %d: %d events in %.3f s%n",
            i + 1,
            w.events(),
            w.loopWallNs() / 1e9);
      }
      Sample base = bench.measure(scenario(o, o.baselineSeconds()), ext);
      Sample full = null;
      for (int i = 0; i < o.runs(); i++) {
        Sample s = bench.measure(scenario(o, o.seconds()), ext);
        if (o.runs() > 1) {
          System.out.printf(
              Locale.ROOT,
              "run %d: %d events, %.3f s CPU, %.3f s wall%n",
              i + 1,
              s.events(),
              s.cpuNs() / 1e9,
              s.loopWallNs() / 1e9);
        }
        full = full == null || s.cpuNs() < full.cpuNs() ? s : full;
      }
      WholeRunReport.print(System.out, o, base, java.util.Objects.requireNonNull(full, "no run"));
      return 0;
    } catch (UnsupportedOperationException e) {
      System.err.println(String.format(Locale.ROOT, NOT_READY, e.getMessage()));
      return 3;
    } catch (PluginException | SimulationException e) {
      System.err.println("WholeRunBenchmark: run failed: " + e.getMessage());
      return 1;
    }
  }

  private static Scenario scenario(WholeRunOptions o, double seconds) {
    return WholeRunScenario.build(WholeRunOptions.ns(seconds), o.seed(), o.cpus(), o.taskScale());
  }

  private Sample measure(Scenario scenario, Extensions ext) throws SimulationException {
    System.gc();
    long bytes0 = threads.getCurrentThreadAllocatedBytes();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    RunResult r = Simulation.run(scenario.config(), ext, TraceSink.NONE);
    long t1 = System.nanoTime();
    long cpu1 = threads.getCurrentThreadCpuTime();
    long bytes1 = threads.getCurrentThreadAllocatedBytes();
    return new Sample(r.simNs(), r.events(), r.wallNs(), t1 - t0, bytes1 - bytes0, cpu1 - cpu0);
  }

  private static com.sun.management.ThreadMXBean allocationCounter() {
    if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean mx)
        || !mx.isThreadAllocatedMemorySupported()) {
      throw new IllegalStateException(
          "this JVM cannot count per-thread allocation"
              + " (com.sun.management.ThreadMXBean); use a HotSpot-based JDK 17+");
    }
    mx.setThreadAllocatedMemoryEnabled(true);
    return mx;
  }

  /**
   * One run's figures.
   *
   * @param simNs simulated time, ns
   * @param events events processed
   * @param loopWallNs wall time of the event loop only (excludes building the kernel)
   * @param totalWallNs wall time of {@link Simulation#run} including set-up
   * @param bytes bytes allocated by this thread during {@link Simulation#run}
   * @param cpuNs CPU time of this thread during {@link Simulation#run}, set-up included
   */
  record Sample(
      long simNs, long events, long loopWallNs, long totalWallNs, long bytes, long cpuNs) {
    /** CPU ns per event (set-up included: a small part of a run of seconds). */
    double cpuNsPerEvent() {
      return events == 0 ? Double.NaN : (double) cpuNs / events;
    }

    double simSecondsPerWallSecond() {
      return (double) simNs / loopWallNs;
    }

    double eventsPerWallSecond() {
      return events * 1e9 / loopWallNs;
    }

    double bytesPerEvent() {
      return events == 0 ? Double.NaN : (double) bytes / events;
    }
  }
}
