package dev.schedlab.cli;

import static java.util.Objects.requireNonNull;

import dev.schedlab.lab.run.PluginLines;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.lab.run.ScenarioRun;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.traceimport.replay.ReplayReport;
import dev.schedlab.traceimport.replay.ReplayRun;
import dev.schedlab.traceimport.workload.ImportedTrace;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedlab replay}: import a trace, replay it, and compare the model with the kernel. */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
      "Import a recorded kernel trace (as import-trace does), replay it in the model, and print"
          + " per task and in total the traced and simulated runtime, runs, wakeups, wakeup"
          + " latency percentiles, migrations and context switches, and per CPU the utilisation.",
      "With --plugin, the same workload is also replayed with the plugins and reported beside."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:replayed",
      "1:the replay failed (a plugin threw or a model invariant broke)",
      "2:bad input: unreadable trace, a line that does not parse, a plugin error"
    })
final class ReplayCommand implements Callable<Integer> {
  enum Format {
    text,
    json
  }

  @Spec picocli.CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject OutputFiles files;

  @Mixin TraceArgs trace;

  @Mixin PluginsDir pluginsDir;

  @Option(
      names = "--plugin",
      paramLabel = "ID[:k=v;k=v]",
      converter = PluginOptionLine.class,
      description = "Also replay with this plugin (repeatable: all of them in one replay).")
  List<String> plugins = new ArrayList<>();

  @Option(names = "--seed", paramLabel = "N", description = "The replay's seed (default 1).")
  @Nullable Long seed;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "Output on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  Format format;

  @Option(
      names = "--top",
      paramLabel = "N",
      defaultValue = "20",
      description =
          "Tasks shown in the text report, by traced runtime (default: ${DEFAULT-VALUE}).")
  int top;

  @Option(
      names = "--scenario-out",
      paramLabel = "FILE",
      description = "Also write the imported scenario to FILE (atomically).")
  @Nullable Path scenarioOut;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Also write the JSON report to FILE (atomically).")
  @Nullable Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = scenarioOut == null ? null : scenarioOut.toAbsolutePath().getParent();
    ImportedTrace imported = trace.load(dir, err);
    Scenario s = imported.replayScenario();
    if (seed != null) {
      s = s.withSeed(seed);
    }
    List<ReplayRun> runs = new ArrayList<>();
    try (Plugins host = Plugins.open(pluginsDir.resolve())) {
      Scenario model = PluginLines.replace(s, List.of());
      runs.add(ReplayRun.of("model", ScenarioRun.prepare(model, host)));
      if (!plugins.isEmpty()) {
        Scenario withPlugins = PluginLines.replace(s, plugins);
        runs.add(ReplayRun.of(PluginLines.label(plugins), ScenarioRun.prepare(withPlugins, host)));
      }
    }
    ReplayReport report = new ReplayReport(imported, runs);
    String json = format == Format.json || out != null ? report.json() : null;
    write(scenarioOut, "--scenario-out", imported.scenarioText());
    write(out, "--out", json);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(format == Format.json ? json : report.text(top));
    stdout.flush();
    return Main.OK;
  }

  private void write(@Nullable Path file, String option, @Nullable String text)
      throws OutputFileException {
    if (file != null) {
      files.write(option, file, requireNonNull(text)); // computed whenever its file is given
    }
  }
}
