package dev.schedlab.cli;

import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The scenario file, its machine file and its {@code --set} overrides (run, validate, compare). */
final class ScenarioArgs {
  @Parameters(
      index = "0",
      paramLabel = "SCENARIO",
      description = "Scenario file (.yaml, .yml or .json); see docs/scenarios.md.")
  Path file;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "Override a scenario field before validation, by dotted path: kernel.hz=250,"
              + " duration=2s, workload.tasks[0].nice=-5, kernel.params.cost.sched_base=400ns."
              + " Repeatable; applied in order.")
  List<String> sets = new ArrayList<>();

  @Option(
      names = "--machine",
      paramLabel = "FILE",
      description =
          "Run on the machine of a machine file (schedlab host writes one): its machine"
              + " replaces the scenario's and its kernel settings win; --set still comes last.")
  @Nullable Path machine;

  Scenario load() throws ScenarioException {
    return ScenarioLoader.load(file, machine, sets);
  }
}
