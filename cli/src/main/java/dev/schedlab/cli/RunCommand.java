package dev.schedlab.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.run.PluginLines;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.lab.run.RunOutcome;
import dev.schedlab.lab.run.RunSettings;
import dev.schedlab.lab.run.ScenarioRun;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.report.section.RunSection;
import dev.schedlab.report.timeline.Timeline;
import dev.schedlab.report.timeline.TimelineRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
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
  List<String> plugins = new ArrayList<>();

  @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
  @Nullable Long seed;

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
  @Nullable Path trace;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Also write the JSON result to FILE (atomically).")
  @Nullable Path out;

  @Mixin SafetyOptions safety;

  @Option(
      names = "--rtapp-logdir",
      paramLabel = "DIR",
      description =
          "Write the log files of an rt-app workload to DIR instead of its"
              + " global.logdir (a relative logdir is relative to the working directory, as for"
              + " rt-app). Written only when the run completes.")
  @Nullable Path rtappLogdir;

  @Option(names = "--no-rtapp-logs", description = "Do not write the rt-app log files.")
  boolean noRtappLogs;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description =
          "Also write a self-contained HTML report to FILE: per-CPU timeline, latency"
              + " distributions, IPIs and wakeups by path, every metric (see schedlab report).")
  @Nullable Path report;

  private @Nullable Timeline timeline;

  @Override
  public Integer call() throws Exception {
    Scenario s = scenario.load();
    List<RtAppReport> rtapp = noRtappLogs ? List.of() : RtAppLogs.reports(s);
    RtAppLogs.checkDirs(rtapp, rtappLogdir);
    if (seed != null) {
      s = s.withSeed(seed);
    }
    s = PluginLines.merge(s, plugins);
    RunOutcome result;
    try (Plugins host = Plugins.open(pluginsDir.resolve())) {
      result = simulate(ScenarioRun.prepare(s, host));
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(format == Format.json ? result.json() : result.text());
    stdout.flush();
    RtAppLogs.write(rtapp, rtappLogdir, result);
    if (out != null) {
      try {
        result.writeJson(out);
      } catch (IOException e) {
        throw new OutputFileException("--out", out, e);
      }
    }
    if (report != null) {
      String json = result.json();
      JsonNode node = new ObjectMapper().readTree(json);
      ReportFile.write(
          "--report",
          report,
          List.of(RunSection.of(node, json, requireNonNull(timeline).finish(result.simNs()))));
    }
    if (!result.ejections().isEmpty()) {
      result.ejections().forEach(e -> spec.commandLine().getErr().println("schedlab: " + e));
      return Main.EJECTED;
    }
    return Main.OK;
  }

  private RunOutcome simulate(ScenarioRun run) throws Exception {
    Scenario s = run.scenario();
    // The report's timeline listens to the run itself: no trace file is needed for it.
    timeline = report == null ? null : new Timeline(s.nrCpus(), s.durationNs());
    if (trace == null) {
      RunSettings settings = safety.settings(spec, null);
      return timeline == null ? run.run(settings) : TimelineRun.run(run, timeline, null, settings);
    }
    FtraceWriter sink;
    try {
      sink = FtraceWriter.open(trace, s.nrCpus());
    } catch (IOException e) {
      throw new OutputFileException("--trace", trace, e);
    }
    RunSettings settings = safety.settings(spec, sink::abort);
    RunOutcome r;
    try {
      r =
          timeline == null
              ? run.runWithTrace(sink, settings)
              : TimelineRun.run(run, timeline, sink, settings);
    } catch (Exception | Error e) {
      sink.abort();
      throw e;
    }
    sink.close();
    return r;
  }
}
