package dev.schedlab.engine;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.scenario.Scenario;

/** Entry point: runs one scenario with the given extensions and returns its result. */
public final class Simulation {
  private Simulation() {}

  /**
   * Runs {@code scenario} to its duration.
   *
   * @throws SimulationException when a plugin fails or a model invariant breaks
   */
  public static RunResult run(Scenario scenario, Extensions extensions, TraceSink trace)
      throws SimulationException {
    throw new UnsupportedOperationException("engine core not wired yet");
  }
}
