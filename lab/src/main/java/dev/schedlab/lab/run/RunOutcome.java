package dev.schedlab.lab.run;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.plugin.PluginEjection;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.Reports;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A finished run of a scenario, as the command line prints and writes it: the engine's {@link
 * RunResult} with the scenario's tool reports. The result itself stays the engine's value type (the
 * writers, reports and experiments of the lab take it); {@link #result()} gives it to them.
 */
public final class RunOutcome {
  private final Scenario scenario;
  private final RunResult result;

  RunOutcome(Scenario scenario, RunResult result) {
    this.scenario = scenario;
    this.result = result;
  }

  /** The engine's result. */
  public RunResult result() {
    return result;
  }

  /** Simulated time, ns. */
  public long simNs() {
    return result.simNs();
  }

  /** One line per plugin ejected during the run, in order (empty when none misbehaved). */
  public List<String> ejections() {
    return result.ejections().stream().map(PluginEjection::summary).toList();
  }

  /** The result and the tool reports as text. */
  public String text() {
    return ResultWriter.toText(result) + Reports.text(scenario.workload().tools(), result);
  }

  /** The result and the tool reports as JSON. */
  public String json() {
    return ResultWriter.toJson(result, reports());
  }

  /** Writes {@link #json()} to {@code file}, atomically. */
  public void writeJson(Path file) throws IOException {
    ResultWriter.writeJson(result, reports(), file);
  }

  /** Writes the log files of the rt-app workload {@code report} into {@code dir}. */
  public void writeRtAppLogs(RtAppReport report, Path dir) throws IOException {
    report.writeLogs(result, dir);
  }

  private Map<String, Object> reports() {
    return Reports.json(scenario.workload().tools(), result);
  }
}
