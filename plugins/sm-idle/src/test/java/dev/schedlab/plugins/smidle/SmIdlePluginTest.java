package dev.schedlab.plugins.smidle;

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

/** The SM_IDLE fast path through hook H1, run in the engine with the plugin in-process. */
class SmIdlePluginTest {
  private static RunResult run(String yaml, boolean plugin) throws Exception {
    Scenario s = ScenarioLoader.parse("t.yaml", yaml, true, "t", List.of());
    try (PluginHost host = PluginHost.inProcess(SmIdlePlugin::new)) {
      List<PluginRef> refs = plugin ? List.of(new PluginRef("sm-idle", Map.of())) : List.of();
      return Simulation.run(s.withPlugins(refs), host.extensionsFor(refs), TraceSink.NONE);
    }
  }

  private static long metric(RunResult r, String name) {
    return ((Number) r.metrics().get(name)).longValue();
  }

  private static final String IPISTORM = String.join("\n",
      "duration: 1s",
      "machine: {preset: small-x86}",
      "workload: {tools: [{ipistorm: \"numipi=5000 single=1 offset=1 cpulist=2 wait=1\"}]}",
      "");

  @Test
  void idleReentryWithNothingQueuedSkipsPickAndNewidle() throws Exception {
    RunResult base = run(IPISTORM, false);
    RunResult patched = run(IPISTORM, true);
    assertThat(metric(base, "sched.pick_overrides")).isZero();
    assertThat(metric(patched, "sched.pick_overrides")).isGreaterThan(4_000);
    // Without the patch every schedule_idle() (one per call served through the polling shortcut)
    // runs pick and newidle balance; with it almost none does, though it re-enters far more often.
    long baseReentries = metric(base, "sched.schedule_idle_calls");
    long patchedReentries = metric(patched, "sched.schedule_idle_calls");
    assertThat(baseReentries).isPositive();
    assertThat(metric(base, "sched.newidle_balance_calls")).isEqualTo(baseReentries);
    assertThat(patchedReentries).isGreaterThan(4_000);
    assertThat(metric(patched, "sched.newidle_balance_calls")).isLessThan(patchedReentries / 100);
  }

  @Test
  void ipiStormFinishesSoonerBecauseMoreCallsFindTheTargetPolling() throws Exception {
    RunResult base = run(IPISTORM, false);
    RunResult patched = run(IPISTORM, true);
    assertThat(metric(patched, "ipi.polling_shortcut.call_function"))
        .isGreaterThan(metric(base, "ipi.polling_shortcut.call_function"));
    assertThat(metric(patched, "task.last_exit_ns")).isLessThan(metric(base, "task.last_exit_ns"));
  }

  @Test
  void aQueuedWakeupStillTakesTheNormalPick() throws Exception {
    // A consumer on CPU 3 is woken from CPU 0 through the wake list (it is idle): nr_running > 0,
    // so SM_IDLE must not short-circuit, and every item is consumed as without the patch.
    String yaml = String.join("\n",
        "duration: 200ms",
        "machine: {preset: small-x86}",
        "workload:",
        "  tasks:",
        "    - {name: producer, cpus: \"0\", program: [{user: 50us}, {wake: q}, {sleep: 200us}]}",
        "    - {name: consumer, cpus: \"3\", program: [{block: q}, {user: 10us}, {mark: consumed}]}",
        "");
    RunResult base = run(yaml, false);
    RunResult patched = run(yaml, true);
    assertThat(metric(patched, "sched.wakeups_wakelist")).isPositive();
    assertThat(metric(patched, "mark.consumed")).isEqualTo(metric(base, "mark.consumed")).isPositive();
  }
}
