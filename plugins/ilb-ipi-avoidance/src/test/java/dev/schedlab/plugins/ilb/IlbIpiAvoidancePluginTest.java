package dev.schedlab.plugins.ilb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.testkit.Comparison;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The RFC's three changes through hooks H6, H8 and H9, run in the engine. */
class IlbIpiAvoidancePluginTest {
  /** vCPU 0 busy; vCPUs 1-3 alternate work and sleep, so they keep stopping their ticks. */
  private static final String MIXED =
      String.join(
          "\n",
          "duration: 500ms",
          "machine: {preset: kvm-4vcpu}",
          "workload:",
          "  tasks:",
          "    - {name: busy, cpus: \"0\", program: [{user: 10ms}]}",
          "    - {name: burst, count: 3, cpus: \"1-3\", per_cpu: true,"
              + " program: [{user: 1500us}, {sleep: {uniform: [500us, 3ms]}}]}",
          "");

  @RegisterExtension static final PluginKit KIT = PluginKit.of(IlbIpiAvoidancePlugin::new);

  @Test
  void tickStopsNoLongerCauseNextKicks() throws Exception {
    Comparison c = KIT.compare(TestScenario.yaml(MIXED));
    Run base = c.baseline();
    Run patched = c.patched();
    // As many tick stops either way (the local refresh shifts timings by a stop or two).
    assertThat(base.metric("tick.stops")).isPositive();
    assertThat((double) patched.metric("tick.stops"))
        .isCloseTo(
            base.metric("tick.stops"),
            org.assertj.core.api.Assertions.within(base.metric("tick.stops") / 100.0));
    assertThat(base.metric("nohz.kick_flags.next")).isGreaterThan(100);
    assertThat(patched.metric("nohz.kick_flags.next")).isZero();
  }

  @Test
  void nextBalanceIsRefreshedLocallyWithoutAnIpi() throws Exception {
    Comparison c = KIT.compare(TestScenario.yaml(MIXED));
    Run base = c.baseline();
    Run patched = c.patched();
    assertThat(patched.metric("nohz.idle_balance_runs_local"))
        .isGreaterThan(base.metric("nohz.idle_balance_runs_local") + 100);
    // The kicks that remain are the BALANCE/STATS ones, which need an IPI as before.
    assertThat(patched.metric("ipi.sent.ilb_kick")).isLessThan(base.metric("ipi.sent.ilb_kick"));
    assertThat(patched.metric("ipi.sent.ilb_kick"))
        .isPositive()
        .isLessThanOrEqualTo(patched.metric("nohz.kicks"));
  }
}
