package dev.schedlab.report.timeline;

import dev.schedlab.engine.SimulationException;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.run.RunOutcome;
import dev.schedlab.lab.run.RunSettings;
import dev.schedlab.lab.run.ScenarioRun;
import org.jspecify.annotations.Nullable;

/**
 * Runs a scenario with a {@link Timeline} listening, and its ftrace text trace also written to a
 * file when one is given: the report's way into a run, so that its callers never hand the model's
 * trace sinks around themselves.
 */
public final class TimelineRun {
  private TimelineRun() {}

  /**
   * Runs {@code run} to its duration; every trace event goes to {@code traceFile} (when given),
   * then to {@code timeline}.
   *
   * @throws SimulationException a plugin failed under {@code failOnPluginError} or a model
   *     invariant broke
   */
  public static RunOutcome run(
      ScenarioRun run, Timeline timeline, @Nullable FtraceWriter traceFile, RunSettings settings)
      throws SimulationException {
    return run.run(traceFile == null ? timeline : new TeeSink(traceFile, timeline), settings);
  }
}
