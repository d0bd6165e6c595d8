package dev.schedlab.plugins.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.scenario.PluginRef;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.ScenarioLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The RFC's three changes through hooks H6, H8 and H9, run in the engine. */
class IlbIpiAvoidancePluginTest {
  /** vCPU 0 busy; vCPUs 1-3 alternate work and sleep, so they keep stopping their ticks. */
  private static final String MIXED = String.join("\n",
      "duration: 500ms",
      "machine: {preset: kvm-4vcpu}",
      "workload:",
      "  tasks:",
      "    - {name: busy, cpus: \"0\", program: [{user: 10ms}]}",
      "    - {name: burst, count: 3, cpus: \"1-3\", per_cpu: true,"
          + " program: [{user: 1500us}, {sleep: {uniform: [500us, 3ms]}}]}",
      "");

  private static RunResult run(String yaml, boolean plugin) throws Exception {
    Scenario s = ScenarioLoader.parse("t.yaml", yaml, true, "t", List.of());
    try (PluginHost host = PluginHost.inProcess(IlbIpiAvoidancePlugin::new)) {
      List<PluginRef> refs = plugin ? List.of(new PluginRef("ilb-ipi-avoidance", Map.of())) : List.of();
      return Simulation.run(s.withPlugins(refs), host.extensionsFor(refs), TraceSink.NONE);
    }
  }

  private static long metric(RunResult r, String name) {
    return ((Number) r.metrics().get(name)).longValue();
  }

  @Test
  void tickStopsNoLongerCauseNextKicks() throws Exception {
    RunResult base = run(MIXED, false);
    RunResult patched = run(MIXED, true);
    // As many tick stops either way (the local refresh shifts timings by a stop or two).
    assertThat(metric(base, "tick.stops")).isPositive();
    assertThat((double) metric(patched, "tick.stops"))
        .isCloseTo(metric(base, "tick.stops"), org.assertj.core.api.Assertions.within(metric(base, "tick.stops") / 100.0));
    assertThat(metric(base, "nohz.kick_flags.next")).isGreaterThan(100);
    assertThat(metric(patched, "nohz.kick_flags.next")).isZero();
  }

  @Test
  void nextBalanceIsRefreshedLocallyWithoutAnIpi() throws Exception {
    RunResult base = run(MIXED, false);
    RunResult patched = run(MIXED, true);
    assertThat(metric(patched, "nohz.idle_balance_runs_local"))
        .isGreaterThan(metric(base, "nohz.idle_balance_runs_local") + 100);
    // The kicks that remain are the BALANCE/STATS ones, which need an IPI as before.
    assertThat(metric(patched, "ipi.sent.ilb_kick")).isLessThan(metric(base, "ipi.sent.ilb_kick"));
    assertThat(metric(patched, "ipi.sent.ilb_kick")).isPositive().isLessThanOrEqualTo(metric(patched, "nohz.kicks"));
  }
}
