package dev.schedlab.lab.scenario;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.workload.ToolRun;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The rt-app fixture files of src/test/resources/rtapp and helpers to look inside their tasks. */
final class RtAppFixtures {
  private RtAppFixtures() {}

  static Path file(String name) {
    try {
      return Path.of(RtAppFixtures.class.getResource("/rtapp/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  static TaskSpec task(Scenario s, String name) {
    return s.workload().tasks().stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "no task "
                        + name
                        + " in "
                        + s.workload().tasks().stream().map(TaskSpec::name).toList()));
  }

  /** The steps of a program with loops flattened (each body once). */
  static List<StepSpec> flat(List<StepSpec> program) {
    List<StepSpec> out = new ArrayList<>();
    for (StepSpec s : program) {
      if (s instanceof StepSpec.Loop l) {
        out.addAll(flat(l.body()));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  static <T extends StepSpec> List<T> steps(TaskSpec t, Class<T> kind) {
    return flat(t.program()).stream().filter(kind::isInstance).map(kind::cast).toList();
  }

  static RtAppReport report(Scenario s) {
    for (ToolRun t : s.workload().tools()) {
      if (t.report() instanceof RtAppReport r) {
        return r;
      }
    }
    throw new AssertionError("no rt-app report");
  }

  static RunResult run(Scenario s) throws Exception {
    try (PluginHost host = PluginHost.builtinOnly()) {
      return Simulation.run(s.config(), host.extensionsFor(List.of()), TraceSink.NONE);
    }
  }
}
