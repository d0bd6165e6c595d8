package dev.schedlab.engine.core;

import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import java.util.Map;

/** One run of the model: build, run to the scenario's duration, report. */
public final class KernelRun {
  private final Kernel kernel;
  private final long durationNs;

  private KernelRun(Kernel kernel, long durationNs) {
    this.kernel = kernel;
    this.durationNs = durationNs;
  }

  /** Builds the kernel for {@code scenario}. */
  public static KernelRun prepare(RunConfig scenario, Extensions extensions, TraceSink trace) {
    return new KernelRun(KernelBuilder.build(scenario, extensions, trace), scenario.durationNs());
  }

  /** Runs to the end; returns the number of events processed. */
  public long run() {
    return kernel.run(durationNs);
  }

  /**
   * Runs up to {@code ns} of simulated time (at most to the end); {@link #run()} then continues
   * from there, with the same events as a run without the stop. Lets a benchmark read a counter
   * mid-run. Returns the number of events processed so far.
   */
  public long runUntil(long ns) {
    return kernel.run(Math.min(ns, durationNs));
  }

  /** Simulated time reached, ns. */
  public long simNs() {
    return kernel.now;
  }

  /** Current simulated time, ns (valid during the run, e.g. when a plugin fails). */
  public long nowNs() {
    return kernel.now;
  }

  /** Hash of the event stream. */
  public String digest() {
    return kernel.digest();
  }

  /** Events processed. */
  public long events() {
    return kernel.events();
  }

  /** Raw values of capped latency series. */
  public Map<String, long[]> rawSamples() {
    return kernel.metrics.rawSamples();
  }

  /** Metrics by name. */
  public Map<String, Object> metrics() {
    return kernel.metricsSnapshot();
  }
}
