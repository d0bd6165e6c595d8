package dev.schedlab.lab.run;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.scenario.Scenario;
import org.jspecify.annotations.Nullable;

/**
 * One scenario with its plugins resolved, ready to run: {@link #prepare} resolves the plugins first
 * (so a plugin error comes before any output file is opened), {@link #run} runs the model through
 * the engine's facade.
 */
public final class ScenarioRun {
  private final Scenario scenario;
  private final Extensions extensions;

  private ScenarioRun(Scenario scenario, Extensions extensions) {
    this.scenario = scenario;
    this.extensions = extensions;
  }

  /**
   * {@code s} with its plugins resolved from {@code plugins} (which must stay open until the run
   * ends).
   *
   * @throws PluginException a plugin is unknown, failed to load, or conflicts with another
   */
  public static ScenarioRun prepare(Scenario s, Plugins plugins) throws PluginException {
    return new ScenarioRun(s, plugins.extensionsFor(s));
  }

  /** The scenario. */
  public Scenario scenario() {
    return scenario;
  }

  /** The resolved extensions, for tools that run the model themselves (trace replay). */
  public Extensions extensions() {
    return extensions;
  }

  /**
   * Runs the scenario to its duration without a trace.
   *
   * @throws SimulationException a plugin failed under {@code failOnPluginError} or a model
   *     invariant broke
   */
  public RunOutcome run(RunSettings settings) throws SimulationException {
    return run(null, settings);
  }

  /**
   * Runs the scenario to its duration with its ftrace text trace written to {@code traceFile}
   * (which the caller closes, or aborts if the run fails).
   *
   * @throws SimulationException a plugin failed under {@code failOnPluginError} or a model
   *     invariant broke
   */
  public RunOutcome runWithTrace(FtraceWriter traceFile, RunSettings settings)
      throws SimulationException {
    return run(traceFile, settings);
  }

  /**
   * Runs the scenario to its duration; the trace goes to {@code trace} (null: nowhere).
   *
   * @throws SimulationException a plugin failed under {@code failOnPluginError} or a model
   *     invariant broke
   */
  public RunOutcome run(@Nullable TraceSink trace, RunSettings settings)
      throws SimulationException {
    return new RunOutcome(
        scenario,
        Simulation.run(
            scenario.config(),
            extensions,
            trace == null ? TraceSink.NONE : trace,
            settings.options()));
  }
}
