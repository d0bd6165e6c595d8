package dev.schedlab.lab.workload;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.util.List;

/** Loads YAML scenarios with tools and runs them with the built-ins. */
final class ToolRunner {
  private ToolRunner() {}

  static Scenario load(String yaml) throws Exception {
    return ScenarioLoader.parse("t.yaml", yaml, true, "t", List.of());
  }

  static RunResult run(Scenario s) throws Exception {
    try (PluginHost host = PluginHost.builtinOnly()) {
      return Simulation.run(s.config(), host.extensionsFor(List.of()), TraceSink.NONE);
    }
  }

  /** A scenario on a tiny machine with one tool. */
  static String tiny(int cpus, String duration, String tool, String args) {
    return String.join(
        "\n",
        "duration: " + duration,
        "machine: {sockets: 1, cores_per_socket: "
            + cpus
            + ", threads_per_core: 1, idle_states: poll-only}",
        "workload:",
        "  tools:",
        "    - " + tool + ": \"" + args + "\"",
        "");
  }
}
