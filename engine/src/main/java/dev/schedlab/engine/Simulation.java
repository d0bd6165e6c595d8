package dev.schedlab.engine;

import com.google.inject.Guice;
import com.google.inject.ProvisionException;
import dev.schedlab.engine.core.KernelRun;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginFailure;
import dev.schedlab.engine.scenario.Scenario;
import java.util.List;

/** Entry point: runs one scenario with the given extensions and returns its result. */
public final class Simulation {
  private Simulation() {}

  /**
   * Runs {@code scenario} to its duration.
   *
   * @throws IllegalArgumentException when the scenario names something the extensions lack
   * @throws SimulationException when a plugin fails or a model invariant breaks
   */
  public static RunResult run(Scenario scenario, Extensions extensions, TraceSink trace)
      throws SimulationException {
    KernelRun run = prepare(scenario, extensions, trace);
    long start = System.nanoTime();
    try {
      run.run();
    } catch (PluginFailure f) {
      throw new SimulationException(f.getMessage() + " (at simulated time " + run.nowNs() + " ns)", f);
    } catch (RuntimeException e) {
      throw new SimulationException("model invariant violated at simulated time " + run.nowNs()
          + " ns: " + e, e);
    }
    long wall = System.nanoTime() - start;
    List<String> plugins = extensions.plugins().stream().map(p -> p.descriptor().id()).toList();
    return new RunResult(Version.current(), scenario.name(), scenario.seed(), plugins,
        run.digest(), run.events(), run.simNs(), wall, run.metrics(), run.rawSamples());
  }

  private static KernelRun prepare(Scenario scenario, Extensions extensions, TraceSink trace) {
    try {
      return Guice.createInjector(new EngineModule(scenario, extensions, trace))
          .getInstance(KernelRun.class);
    } catch (ProvisionException e) {
      if (e.getCause() instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw e;
    }
  }
}
