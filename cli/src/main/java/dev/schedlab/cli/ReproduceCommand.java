package dev.schedlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.lab.experiment.Batch;
import dev.schedlab.lab.experiment.Experiment;
import dev.schedlab.lab.experiment.ExperimentResult;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.report.ReportInputs;
import dev.schedlab.report.section.ReproduceSection;
import java.io.PrintWriter;
import java.nio.file.Files;
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
import picocli.CommandLine.Parameters;

/** {@code schedlab reproduce}: the bundled experiments, simulated values beside published ones. */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description =
        "Run the experiments of scenarios/*.experiment.yaml (all, or the given ids) and"
            + " print each seed's table with the simulated values next to the published ones.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "1:a run failed", "2:bad input or unknown experiment id"})
final class ReproduceCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;
  @com.google.inject.Inject java.time.InstantSource clock;

  @Parameters(paramLabel = "ID", arity = "0..*", description = "Experiment ids (default: all).")
  List<String> ids = new ArrayList<>();

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      defaultValue = "scenarios",
      description = "Where the experiment files are (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(
      names = "--seeds",
      paramLabel = "N",
      description = "Override each experiment's seed count.")
  @Nullable Integer seeds;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "Override a scenario field in every run, after the experiment's own sets (for"
              + " smaller runs, e.g. duration=100ms or workload.tools[0].ipistorm=numipi=1000)."
              + " Repeatable.")
  List<String> sets = new ArrayList<>();

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
          "Also write a self-contained HTML report to FILE: each row's simulated values"
              + " beside the published ones, bands shaded (see schedlab report).")
  @Nullable Path report;

  @Option(
      names = "--full",
      description =
          "Each experiment at the seed's own run length and"
              + " sample count (the experiment's full: block) instead of the shortened default run.")
  boolean full;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description = "Runs at a time (default: one per core). The output does not depend on it.")
  @Nullable Integer jobs;

  @Mixin PluginsDir pluginsDir;

  @Override
  public Integer call() throws Exception {
    if (!Files.isDirectory(dir)) {
      throw new ScenarioException(dir + ": no such directory (use --dir)");
    }
    List<Experiment> exps = new ArrayList<>();
    for (Path f : Experiment.find(dir)) {
      exps.add(Experiment.load(f));
    }
    for (String id : ids) {
      if (exps.stream().noneMatch(e -> e.id().equals(id))) {
        throw new ScenarioException(
            "unknown experiment "
                + id
                + "; known: "
                + String.join(", ", exps.stream().map(Experiment::id).toList()));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    int threads = jobs != null ? jobs : Batch.Pool.allCores();
    if (threads < 1) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1");
    }
    boolean first = true;
    List<JsonNode> results = new ArrayList<>();
    try (Batch.Pool pool = new Batch.Pool(threads, pluginsDir.resolve())) {
      // every experiment's runs are queued first, so the threads stay busy from one to the next
      Map<Experiment, Map<java.nio.file.Path, Batch.Pending>> queued =
          new java.util.LinkedHashMap<>();
      for (Experiment e : exps) {
        if (!ids.isEmpty() && !ids.contains(e.id())) {
          continue;
        }
        Experiment sized = sized(e);
        Batch.Tally tally =
            new Batch.Tally(
                new Progress(err, quiet, e.id(), clock),
                e.scenarios().size() * e.columns().size() * sized.seeds());
        Map<java.nio.file.Path, Batch.Pending> pending = new java.util.LinkedHashMap<>();
        for (java.nio.file.Path scenario : e.scenarios()) {
          pending.put(
              scenario,
              pool.submit(
                  scenario, null, sized.sets(), e.columns(), e.firstSeed(), sized.seeds(), tally));
        }
        queued.put(sized, pending);
      }
      for (Map.Entry<Experiment, Map<java.nio.file.Path, Batch.Pending>> q : queued.entrySet()) {
        Map<java.nio.file.Path, Map<String, List<Batch.Run>>> runs =
            new java.util.LinkedHashMap<>();
        for (Map.Entry<java.nio.file.Path, Batch.Pending> p : q.getValue().entrySet()) {
          runs.put(p.getKey(), p.getValue().results());
        }
        ExperimentResult r = new ExperimentResult(q.getKey(), runs);
        results.add(json.valueToTree(r.json()));
        if (format == RunCommand.Format.json) {
          out.print(json.writeValueAsString(r.json()) + "\n");
        } else {
          out.print((first ? "" : "\n") + r.text());
        }
        out.flush();
        first = false;
      }
    }
    if (report != null) {
      ReportFile.write(
          "--report",
          report,
          List.of(ReproduceSection.of(results, ReportInputs.reproduceJson(results))));
    }
    return Main.OK;
  }

  /**
   * The experiment as run: shortened as its file says, or at the seed's length with {@code --full};
   * then the command's sets, and {@code --seeds} when given.
   */
  private Experiment sized(Experiment e) {
    Experiment base = full ? e.atFullLength() : e;
    return base.with(sets, seeds != null ? seeds : base.seeds());
  }
}
