package dev.schedlab.samples.spin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.testkit.Comparison;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class Sample03SpinPluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(Sample03SpinPlugin::new);

  /** A producer on CPU 0 wakes a consumer on CPU 3 every 50 us. */
  private static final TestScenario PING_PONG =
      TestScenario.yaml(
          """
      duration: 20ms
      machine: {preset: small-x86}
      kernel: {latency_limit: 100us}
      workload:
        tasks:
          - {name: producer, cpus: "0", program: [{user: 50us}, {wake: q}]}
          - {name: consumer, cpus: "3", program: [{block: q}, {user: 10us}, {mark: consumed}]}
      """);

  @Test
  void aWakeupWithinTheSpinFindsTheTaskStillQueued() throws Exception {
    Comparison c = KIT.compare(PING_PONG, "sample-spin:limit=100us");
    assertThat(c.baseline().metric("sched.wakeups_runnable")).isZero();
    assertThat(c.patched().hookCalls(HookPoint.H2_BEFORE_DEACTIVATE)).isPositive();
    assertThat(c.patched().metric("sched.wakeups_runnable")).isGreaterThan(300);
    assertThat(c.patched().metric("sched.context_switches"))
        .isLessThan(c.baseline().metric("sched.context_switches") / 10);
  }

  @Test
  void aShortLimitTimesOutAndTheTaskSleepsAsBefore() throws Exception {
    Comparison c = KIT.compare(PING_PONG, "sample-spin:limit=1us");
    assertThat(c.patched().metric("sched.wakeups_runnable")).isZero();
    assertThat(c.patched().metric("mark.consumed")).isEqualTo(c.baseline().metric("mark.consumed"));
  }

  @Test
  void optionsAreCheckedBeforeTheRun() {
    assertThatThrownBy(() -> KIT.run(PING_PONG, "sample-spin:limt=1ms"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("unknown option 'limt'");
    assertThatThrownBy(() -> KIT.run(PING_PONG, "sample-spin:limit=1s"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("'limit' must be");
    assertThatThrownBy(() -> KIT.run(PING_PONG, "sample-spin:kthreads=maybe"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("true or false");
  }
}
