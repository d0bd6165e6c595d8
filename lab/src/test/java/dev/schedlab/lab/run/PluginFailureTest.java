package dev.schedlab.lab.run;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginFailure;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A plugin that throws inside a hook stops the run with its id, the hook and the simulated time.
 */
class PluginFailureTest {
  @Test
  void failureNamesPluginHookAndSimulatedTime() throws Exception {
    var scenario =
        ScenarioLoader.parse(
            "t.yaml",
            String.join(
                "\n",
                "duration: 10ms",
                "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}",
                "workload: {tasks: [{name: a, program: [{user: 100us}, {sleep: 100us}]}]}",
                ""),
            true,
            "t",
            List.of());
    Extensions base;
    try (PluginHost host = PluginHost.builtinOnly()) {
      base = host.extensionsFor(List.of());
    }
    // What the host's guard throws when a plugin's H1 implementation fails.
    Extensions failing =
        new Extensions(
            base.classes(),
            base.preemptionModels(),
            base.idlePolicies(),
            (cpu, mode, prev, rq) -> {
              throw new PluginFailure(
                  "broken-plugin", "H1 pickOverride", new IllegalStateException("boom"));
            },
            base.beforeDeactivate(),
            base.tick(),
            base.nohzEnterIdle(),
            base.nohzKick(),
            base.newidleFail(),
            base.idleTop(),
            base.exitToUser(),
            base.ipiPrepare(),
            base.runnableWake(),
            base.metrics(),
            base.plugins());
    assertThatThrownBy(() -> Simulation.run(scenario.config(), failing, TraceSink.NONE))
        .isInstanceOf(SimulationException.class)
        .hasMessageContaining("broken-plugin")
        .hasMessageContaining("H1 pickOverride")
        .hasMessageMatching("(?s).*simulated time \\d+ ns.*");
  }
}
