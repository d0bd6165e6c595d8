package dev.schedlab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.lab.workload.Reports;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lab's way in gives the bytes of a direct facade run. */
class ScenarioRunTest {
  private static final String HACKBENCH =
      "duration: 10s\nmachine: {preset: small-x86}\nworkload:\n  tools:\n"
          + "    - hackbench: \"-g 2 -l 10\"\n";

  @Test
  void outcomeIsTheFacadesResultWithTheToolReports() throws Exception {
    Scenario s = ScenarioLoader.parse("h.yaml", HACKBENCH, true, "h", List.of());
    RunOutcome outcome;
    try (Plugins plugins = Plugins.open(null)) {
      outcome = ScenarioRun.prepare(s, plugins).run(null, new RunSettings(false, false, null));
    }
    RunResult direct;
    try (PluginHost host = PluginHost.open(null)) {
      direct = Simulation.run(s.config(), host.extensionsFor(List.of()), TraceSink.NONE);
    }
    assertThat(outcome.result().digest()).isEqualTo(direct.digest());
    assertThat(outcome.simNs()).isEqualTo(direct.simNs());
    // The writers' bytes of the same result (wall_ns differs between runs).
    RunResult r = outcome.result();
    assertThat(outcome.json())
        .isEqualTo(ResultWriter.toJson(r, Reports.json(s.workload().tools(), r)));
    assertThat(outcome.text())
        .isEqualTo(ResultWriter.toText(r) + Reports.text(s.workload().tools(), r));
    assertThat(outcome.ejections()).isEmpty();
  }

  @Test
  void builtInsAndUnknownPlugins() throws Exception {
    try (Plugins plugins = Plugins.open(null)) {
      assertThat(plugins.found()).isEmpty();
      Provided builtin = plugins.provided(List.of());
      assertThat(builtin.problem()).isNull();
      assertThat(builtin.classes()).containsExactly("stop", "deadline", "rt", "fair", "idle");
      assertThat(plugins.provided(List.of("nope")).problem()).contains("unknown plugin nope");
      Scenario s =
          PluginLines.merge(
              ScenarioLoader.parse("h.yaml", HACKBENCH, true, "h", List.of()), List.of("nope"));
      assertThatThrownBy(() -> ScenarioRun.prepare(s, plugins))
          .satisfies(e -> assertThat(Failures.isPluginError((Exception) e)).isTrue());
    }
  }
}
