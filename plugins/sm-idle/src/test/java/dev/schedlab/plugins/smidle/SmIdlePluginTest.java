package dev.schedlab.plugins.smidle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.testkit.Comparison;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The SM_IDLE fast path through hook H1, run in the engine with the plugin in-process. */
class SmIdlePluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(SmIdlePlugin::new);

  private static final String IPISTORM =
      String.join(
          "\n",
          "duration: 1s",
          "machine: {preset: small-x86}",
          "workload: {tools: [{ipistorm: \"numipi=5000 single=1 offset=1 cpulist=2 wait=1\"}]}",
          "");

  @Test
  void idleReentryWithNothingQueuedSkipsPickAndNewidle() throws Exception {
    Comparison c = KIT.compare(TestScenario.yaml(IPISTORM));
    Run base = c.baseline();
    Run patched = c.patched();
    assertThat(base.metric("sched.pick_overrides")).isZero();
    assertThat(patched.metric("sched.pick_overrides")).isGreaterThan(4_000);
    // Every pick of the run went through the plugin's H1 hook; the overrides are a share of them.
    assertThat(patched.hookCalls(HookPoint.H1_PICK_OVERRIDE))
        .isGreaterThanOrEqualTo(patched.metric("sched.pick_overrides"));
    assertThat(base.hookCalls()).isEmpty();
    // Without the patch every schedule_idle() (one per call served through the polling shortcut)
    // runs pick and newidle balance; with it almost none does, though it re-enters far more often.
    long baseReentries = base.metric("sched.schedule_idle_calls");
    long patchedReentries = patched.metric("sched.schedule_idle_calls");
    assertThat(baseReentries).isPositive();
    assertThat(base.metric("sched.newidle_balance_calls")).isEqualTo(baseReentries);
    assertThat(patchedReentries).isGreaterThan(4_000);
    assertThat(patched.metric("sched.newidle_balance_calls")).isLessThan(patchedReentries / 100);
  }

  @Test
  void ipiStormFinishesSoonerBecauseMoreCallsFindTheTargetPolling() throws Exception {
    Comparison c = KIT.compare(TestScenario.yaml(IPISTORM));
    Run base = c.baseline();
    Run patched = c.patched();
    assertThat(patched.metric("ipi.polling_shortcut.call_function"))
        .isGreaterThan(base.metric("ipi.polling_shortcut.call_function"));
    assertThat(patched.metric("task.last_exit_ns")).isLessThan(base.metric("task.last_exit_ns"));
  }

  @Test
  void aQueuedWakeupStillTakesTheNormalPick() throws Exception {
    // A consumer on CPU 3 is woken from CPU 0 through the wake list (it is idle): nr_running > 0,
    // so SM_IDLE must not short-circuit, and every item is consumed as without the patch.
    String yaml =
        String.join(
            "\n",
            "duration: 200ms",
            "machine: {preset: small-x86}",
            "workload:",
            "  tasks:",
            "    - {name: producer, cpus: \"0\", program: [{user: 50us}, {wake: q}, {sleep: 200us}]}",
            "    - {name: consumer, cpus: \"3\", program: [{block: q}, {user: 10us}, {mark: consumed}]}",
            "");
    Comparison c = KIT.compare(TestScenario.yaml(yaml));
    Run base = c.baseline();
    Run patched = c.patched();
    assertThat(patched.metric("sched.wakeups_wakelist")).isPositive();
    assertThat(patched.metric("mark.consumed"))
        .isEqualTo(base.metric("mark.consumed"))
        .isPositive();
  }
}
