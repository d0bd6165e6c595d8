package dev.schedlab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.lab.experiment.Batch;
import dev.schedlab.lab.experiment.Comparison;
import dev.schedlab.lab.experiment.Configuration;
import dev.schedlab.report.section.CompareSection;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code schedlab compare}: baseline against plugin sets and named configurations, over seeds. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description =
        "Run a scenario as baseline and under each plugin set / configuration over the"
            + " same seeds; print per metric mean, 95%% CI (Student t) and the change vs the baseline.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "1:a run failed", "2:bad input"})
final class CompareCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject java.time.InstantSource clock;

  @Mixin ScenarioArgs scenario;

  @Mixin PluginsDir pluginsDir;

  @Option(
      names = "--with",
      paramLabel = "PLUGINSET",
      description =
          "Plugin set: comma-separated plugin ids with option lines (sm-idle, a,b:k=v). Repeatable.")
  List<String> with = new ArrayList<>();

  @Option(
      names = "--config",
      paramLabel = "NAME:K=V[,K=V]",
      description =
          "Named configuration of scenario overrides (full:kernel.preempt=full). Repeatable.")
  List<String> configs = new ArrayList<>();

  @Option(
      names = "--seeds",
      paramLabel = "N",
      defaultValue = "3",
      description = "Seeds per configuration (default ${DEFAULT-VALUE}).")
  int seeds;

  @Option(names = "--seed", paramLabel = "S", description = "First seed (default: the scenario's).")
  @Nullable Long seed;

  @Option(
      names = "--metric",
      paramLabel = "REGEX",
      description = "Only metrics whose path matches (metric.*, report.*). Repeatable.")
  List<String> metrics = new ArrayList<>();

  @Option(names = "--format", defaultValue = "text", description = "text or json.")
  RunCommand.Format format;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress on stderr.")
  boolean quiet;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description =
          "Also write a self-contained HTML report to FILE: each metric's change with its"
              + " confidence interval, overlaid latency percentiles (see schedlab report).")
  @Nullable Path report;

  @Override
  public Integer call() throws Exception {
    if (seeds < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--seeds: expected >= 1");
    }
    if (with.isEmpty() && configs.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "give at least one --with PLUGINSET or --config NAME:K=V");
    }
    List<Configuration> all = new ArrayList<>(List.of(Configuration.baseline()));
    try {
      with.forEach(w -> all.add(Configuration.pluginSet(w)));
      configs.forEach(c -> all.add(Configuration.named(c)));
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    long first = seed != null ? seed : scenario.load().seed();
    PrintWriter err = spec.commandLine().getErr();
    Map<String, List<Batch.Run>> runs =
        Batch.run(
            scenario.file,
            scenario.machine,
            scenario.sets,
            all,
            first,
            seeds,
            pluginsDir.resolve(),
            new Progress(err, quiet, "compare", clock));
    Comparison c = new Comparison(runs, metrics);
    PrintWriter out = spec.commandLine().getOut();
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    String json = mapper.writeValueAsString(c.json()) + "\n";
    out.print(format == RunCommand.Format.json ? json : c.text());
    out.flush();
    if (report != null) {
      ReportFile.write("--report", report, List.of(CompareSection.of(mapper.readTree(json), json)));
    }
    return Main.OK;
  }
}
