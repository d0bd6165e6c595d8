package dev.schedlab.benchmarks;

import dev.schedlab.engine.core.KernelRun;
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
 * <p>It runs {@code --warmup-runs} runs of {@code --warmup-seconds}, then the measured run of
 * {@code --seconds}, each on the current thread, as {@code Simulation.run} does it: build the
 * kernel ({@link KernelRun#prepare}), run it, take its metrics; the run stops once at half its
 * simulated time ({@link KernelRun#runUntil}, which changes no event) to read the allocation
 * counter. Reported: simulated seconds per wall second and events per wall second (wall time of the
 * event loop), bytes allocated per event over the whole run including set-up and the metrics
 * ({@code com.sun.management.ThreadMXBean#getCurrentThreadAllocatedBytes} before/after), and
 * steady-state bytes per event: what the event loop allocated in the second half of the run, per
 * event of it (after the set-up, the tasks' first runs and the JIT's warm-up). Also the thread's
 * CPU time of the run and CPU ns per event: on a shared machine wall time also counts the time
 * other processes had the core, CPU time much less so. With {@code --runs N} the measured run is
 * repeated and the one with the least CPU time is reported (best of N).
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
      WholeRunReport.print(System.out, o, java.util.Objects.requireNonNull(full, "no run"));
      return 0;
    } catch (UnsupportedOperationException e) {
      System.err.println(String.format(Locale.ROOT, NOT_READY, e.getMessage()));
      return 3;
    } catch (PluginException | RuntimeException e) {
      System.err.println("WholeRunBenchmark: run failed: " + e.getMessage());
      return 1;
    }
  }

  private static Scenario scenario(WholeRunOptions o, double seconds) {
    return WholeRunScenario.build(WholeRunOptions.ns(seconds), o.seed(), o.cpus(), o.taskScale());
  }

  private Sample measure(Scenario scenario, Extensions ext) {
    System.gc();
    long bytes0 = threads.getCurrentThreadAllocatedBytes();
    long cpu0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    KernelRun run = KernelRun.prepare(scenario.config(), ext, TraceSink.NONE);
    long loop0 = System.nanoTime();
    long halfEvents = run.runUntil(scenario.config().durationNs() / 2);
    long halfBytes = threads.getCurrentThreadAllocatedBytes();
    long events = run.run();
    long loop1 = System.nanoTime();
    long loopBytes = threads.getCurrentThreadAllocatedBytes();
    run.metrics(); // as Simulation.run's result
    run.rawSamples();
    long t1 = System.nanoTime();
    long cpu1 = threads.getCurrentThreadCpuTime();
    long bytes1 = threads.getCurrentThreadAllocatedBytes();
    return new Sample(
        run.simNs(),
        events,
        loop1 - loop0,
        t1 - t0,
        bytes1 - bytes0,
        cpu1 - cpu0,
        events - halfEvents,
        loopBytes - halfBytes);
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
   * @param totalWallNs wall time of the whole run: set-up, event loop and metrics
   * @param bytes bytes allocated by this thread during the whole run
   * @param cpuNs CPU time of this thread during the whole run, set-up included
   * @param steadyEvents events of the second half of the run
   * @param steadyBytes bytes allocated by this thread in the second half of the event loop
   */
  record Sample(
      long simNs,
      long events,
      long loopWallNs,
      long totalWallNs,
      long bytes,
      long cpuNs,
      long steadyEvents,
      long steadyBytes) {
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

    /** Bytes per event of the second half of the run; NaN if it had no events. */
    double steadyBytesPerEvent() {
      return steadyEvents == 0 ? Double.NaN : (double) steadyBytes / steadyEvents;
    }
  }
}
