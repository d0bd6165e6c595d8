package dev.schedlab.traceimport.replay;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.lab.run.ScenarioRun;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.traceimport.Warnings;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.workload.ReplayProgram;

/**
 * One replay of an imported scenario, measured.
 *
 * @param label what ran ({@code model}, or the plugins' ids)
 * @param result the run's result (digest, metrics)
 * @param history what the replay's tasks did, by the trace's measures
 */
public record ReplayRun(String label, RunResult result, History history) {
  /** How many programs ran to their end (their last traced action). */
  public long finished() {
    Object v = result.metrics().get("mark." + ReplayProgram.DONE);
    return v instanceof Number n ? n.longValue() : 0;
  }

  /** The wake steps the replay ran that target {@code name} (its wakeups, made asleep or not). */
  public long wakeSteps(String name) {
    Object v = result.metrics().get("mark." + ReplayProgram.WAKE_MARK + name);
    return v instanceof Number n ? n.longValue() : 0;
  }

  /** Runs {@code run}'s scenario with its resolved plugins and measures it. */
  public static ReplayRun of(String label, ScenarioRun run) throws SimulationException {
    return of(label, run.scenario(), run.extensions());
  }

  /** Runs {@code scenario} with {@code ext} and measures it. */
  public static ReplayRun of(String label, Scenario scenario, Extensions ext)
      throws SimulationException {
    Warnings ignored = new Warnings("replay"); // the model's own trace is consistent
    History h = History.streaming(scenario.machine().nrCpus(), 0, true, ignored);
    RunResult r = Simulation.run(scenario.config(), ext, new CaptureSink(h));
    h.finish(scenario.durationNs());
    return new ReplayRun(label, r, h);
  }
}
