package dev.schedlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.Reports;
import dev.schedlab.report.section.RunSection;
import dev.schedlab.report.timeline.TeeSink;
import dev.schedlab.report.timeline.Timeline;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code schedlab run}: load, resolve plugins, simulate, print. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run one scenario and print its result (stdout); errors go to stderr.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the run completed",
      "1:the run failed: a plugin misbehaved under --on-plugin-error fail, a plugin hook exceeded"
          + " its wall-clock budget (plugin.hook_budget), or a model invariant broke",
      "2:bad input: scenario error, unknown/failed/conflicting plugin, invalid arguments",
      "3:the run completed after ejecting a plugin (see 'ejected' in the output)"
    })
final class RunCommand implements Callable<Integer> {
  enum Format {
    text,
    json
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin ScenarioArgs scenario;

  @Mixin PluginsDir pluginsDir;

  @Option(
      names = "--plugin",
      paramLabel = "ID[:k=v;k=v]",
      converter = PluginOptionLine.class,
      description =
          "Enable a plugin with options; merged with the scenario's plugins"
              + " (a new id is appended, a listed id gets these options over its own). Repeatable.")
  List<PluginRef> plugins = new ArrayList<>();

  @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
  Long seed;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "Output on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--trace",
      paramLabel = "FILE",
      description =
          "Write an ftrace text trace (Perfetto, idlestat, traceshark) to FILE; no file is"
              + " left behind when the run fails.")
  Path trace;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Also write the JSON result to FILE (atomically).")
  Path out;

  @Mixin SafetyOptions safety;

  @Option(
      names = "--rtapp-logdir",
      paramLabel = "DIR",
      description =
          "Write the log files of an rt-app workload to DIR instead of its"
              + " global.logdir (a relative logdir is relative to the working directory, as for"
              + " rt-app). Written only when the run completes.")
  Path rtappLogdir;

  @Option(names = "--no-rtapp-logs", description = "Do not write the rt-app log files.")
  boolean noRtappLogs;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description =
          "Also write a self-contained HTML report to FILE: per-CPU timeline, latency"
              + " distributions, IPIs and wakeups by path, every metric (see schedlab report).")
  Path report;

  private Timeline timeline;

  @Override
  public Integer call() throws Exception {
    Scenario s = scenario.load();
    List<RtAppReport> rtapp = noRtappLogs ? List.of() : RtAppLogs.reports(s);
    RtAppLogs.checkDirs(rtapp, rtappLogdir);
    if (seed != null) {
      s = s.withSeed(seed);
    }
    s = s.withPlugins(PluginOptionLine.merge(s.plugins(), plugins));
    RunResult result;
    try (PluginHost host = PluginHost.open(pluginsDir.resolve())) {
      Extensions ext = host.extensionsFor(s.plugins());
      result = simulate(s, ext);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    Map<String, Object> reports = Reports.json(s.workload().tools(), result);
    stdout.print(
        format == Format.json
            ? ResultWriter.toJson(result, reports)
            : ResultWriter.toText(result) + Reports.text(s.workload().tools(), result));
    stdout.flush();
    RtAppLogs.write(rtapp, rtappLogdir, result);
    if (out != null) {
      try {
        ResultWriter.writeJson(result, reports, out);
      } catch (IOException e) {
        throw new OutputFileException("--out", out, e);
      }
    }
    if (report != null) {
      String json = ResultWriter.toJson(result, reports);
      JsonNode node = new ObjectMapper().readTree(json);
      ReportFile.write(
          "--report", report, List.of(RunSection.of(node, json, timeline.finish(result.simNs()))));
    }
    if (!result.ejections().isEmpty()) {
      result
          .ejections()
          .forEach(e -> spec.commandLine().getErr().println("schedlab: " + e.summary()));
      return Main.EJECTED;
    }
    return Main.OK;
  }

  private RunResult simulate(Scenario s, Extensions ext) throws Exception {
    // The report's timeline listens to the run itself: no trace file is needed for it.
    timeline = report == null ? null : new Timeline(s.machine().nrCpus(), s.durationNs());
    if (trace == null) {
      return Simulation.run(
          s.config(),
          ext,
          timeline == null ? TraceSink.NONE : timeline,
          safety.options(spec, null));
    }
    FtraceWriter sink;
    try {
      sink = FtraceWriter.open(trace, s.machine().nrCpus());
    } catch (IOException e) {
      throw new OutputFileException("--trace", trace, e);
    }
    RunResult r;
    try {
      r =
          Simulation.run(
              s.config(),
              ext,
              timeline == null ? sink : new TeeSink(sink, timeline),
              safety.options(spec, sink::abort));
    } catch (Exception | Error e) {
      sink.abort();
      throw e;
    }
    sink.close();
    return r;
  }
}
