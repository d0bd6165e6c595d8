package dev.schedlab.cli;

import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.ToolRun;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code schedlab validate}: load and check a scenario without running it. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = "Check a scenario file (syntax, fields, types, ranges) without running it.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:the scenario is valid", "2:it is not (the message names file:line:column)"})
final class ValidateCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin ScenarioArgs scenario;

  @Override
  public Integer call() throws Exception {
    Scenario s = scenario.load();
    spec.commandLine()
        .getOut()
        .printf(
            "ok: %s: %d CPUs (%s), %d task groups (%d tasks), %d plugins, %s, seed %d%n",
            s.name(),
            s.nrCpus(),
            s.machinePreset(),
            s.workload().tasks().size(),
            s.workload().taskCount(),
            s.plugins().size(),
            s.durationNs() + "ns",
            s.seed());
    for (ToolRun t : s.workload().tools()) {
      if (t.report() instanceof RtAppReport r) {
        for (String n : r.plan().notes()) {
          spec.commandLine().getOut().println("note: " + n);
        }
      }
    }
    return Main.OK;
  }
}
