package dev.schedlab.samples.halt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The policy in a running kernel, against the kernel's menu governor on the same workload. */
class Sample01HaltPluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(Sample01HaltPlugin::new);

  private static final TestScenario SLEEPERS =
      TestScenario.builder()
          .duration("200ms")
          .machine("preset", "small-x86")
          .task("sleeper", t -> t.count(4).program("{user: 50us}", "{sleep: 2ms}", "{mark: naps}"))
          .build();

  @Test
  void idleCpusHaltAndKeepTheirTick() throws Exception {
    Run menu = KIT.run(SLEEPERS, "sample-halt");
    Run halt = KIT.run(SLEEPERS.set("machine.idle_governor=sample-halt"), "sample-halt");
    assertThat(menu.metric("idle.entries.C6")).isPositive();
    assertThat(menu.metric("tick.stops")).isPositive();
    // skx: POLL, C1, C1E, C6; C1 is the shallowest that is not a polling loop.
    assertThat(halt.metric("idle.entries.C1")).isPositive();
    assertThat(
            halt.metricOrZero("idle.entries.C1E")
                + halt.metricOrZero("idle.entries.C6")
                + halt.metricOrZero("idle.entries.POLL"))
        .isZero();
    assertThat(halt.metric("tick.stops")).isZero();
    // Each loop is 50 us of work, a 2 ms sleep and the wakeup: out of C1 (2 us exit latency)
    // instead of C6 (133 us) the wakeups are quicker, so more loops fit in the run.
    assertThat(halt.metric("mark.naps")).isGreaterThan(menu.metric("mark.naps"));
  }
}
