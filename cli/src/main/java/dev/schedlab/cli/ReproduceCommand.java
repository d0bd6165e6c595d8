package dev.schedlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.engine.experiment.Batch;
import dev.schedlab.engine.experiment.Experiment;
import dev.schedlab.engine.experiment.ExperimentResult;
import dev.schedlab.engine.scenario.ScenarioException;
import dev.schedlab.report.ReportInputs;
import dev.schedlab.report.section.ReproduceSection;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code schedlab reproduce}: the bundled experiments, simulated values beside published ones. */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description = "Run the experiments of scenarios/*.experiment.yaml (all, or the given ids) and"
        + " print each seed's table with the simulated values next to the published ones.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:done", "1:a run failed", "2:bad input or unknown experiment id"})
final class ReproduceCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(paramLabel = "ID", arity = "0..*", description = "Experiment ids (default: all).")
  List<String> ids = new ArrayList<>();

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "scenarios",
      description = "Where the experiment files are (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--seeds", paramLabel = "N", description = "Override each experiment's seed count.")
  Integer seeds;

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "Override a scenario field in every run, after the experiment's own sets (for"
          + " smaller runs, e.g. duration=100ms or workload.tools[0].ipistorm=numipi=1000)."
          + " Repeatable.")
  List<String> sets = new ArrayList<>();

  @Option(names = "--format", defaultValue = "text", description = "text or json.")
  RunCommand.Format format;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
  boolean quiet;

  @Option(names = "--report", paramLabel = "FILE",
      description = "Also write a self-contained HTML report to FILE: each row's simulated values"
          + " beside the published ones, bands shaded (see schedlab report).")
  Path report;

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
        throw new ScenarioException("unknown experiment " + id + "; known: "
            + String.join(", ", exps.stream().map(Experiment::id).toList()));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    boolean first = true;
    List<JsonNode> results = new ArrayList<>();
    for (Experiment e : exps) {
      if (!ids.isEmpty() && !ids.contains(e.id())) {
        continue;
      }
      int n = seeds != null ? seeds : e.seeds();
      List<String> allSets = new ArrayList<>(e.sets());
      allSets.addAll(sets);
      Experiment sized = new Experiment(e.id(), e.description(), e.file(), e.scenario(), allSets,
          e.firstSeed(), n, e.columns(), e.rows(), e.notes());
      Map<java.nio.file.Path, Map<String, List<Batch.Run>>> runs = new java.util.LinkedHashMap<>();
      for (java.nio.file.Path scenario : e.scenarios()) {
        runs.put(scenario, Batch.run(scenario, allSets, e.columns(), e.firstSeed(), n,
            pluginsDir.resolve(), new Progress(err, quiet, e.id())));
      }
      ExperimentResult r = new ExperimentResult(sized, runs);
      results.add(json.valueToTree(r.json()));
      if (format == RunCommand.Format.json) {
        out.print(json.writeValueAsString(r.json()) + "\n");
      } else {
        out.print((first ? "" : "\n") + r.text());
      }
      out.flush();
      first = false;
    }
    if (report != null) {
      ReportFile.write("--report", report,
          List.of(ReproduceSection.of(results, ReportInputs.reproduceJson(results))));
    }
    return Main.OK;
  }
}
