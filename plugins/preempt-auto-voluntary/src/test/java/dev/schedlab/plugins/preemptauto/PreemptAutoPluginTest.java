package dev.schedlab.plugins.preemptauto;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The AUTO models in the engine, with the plugin in-process. */
class PreemptAutoPluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(PreemptAutoPlugin::new);

  /**
   * {@code yaml} under preemption model {@code model}; the plugin is enabled for its auto-* models.
   */
  private static Run run(String yaml, String model) throws Exception {
    TestScenario s = TestScenario.yaml(yaml.replace("PREEMPT", model));
    return model.startsWith("auto-") ? KIT.run(s, PreemptAutoPlugin.ID) : KIT.run(s);
  }

  /**
   * A statistic ({@code count}, {@code mean}, {@code max}, ...) of the latency series {@code lat}.
   */
  private static double metric(Run r, String stat) {
    Object series = r.metrics().get("latency.lat");
    assertThat(series).as("latency.lat in %s", r.metrics().keySet()).isInstanceOf(Map.class);
    Object v = ((Map<?, ?>) series).get(stat);
    assertThat(v).as("latency.lat.%s", stat).isNotNull();
    return ((Number) v).doubleValue();
  }

  /**
   * A fair task on CPU 0 spends 400 us at a time in one preemptible kernel segment without any
   * cond_resched/might_resched point, then 5 us in user space; a deadline task on CPU 0 sleeps 1 ms
   * and measures its wakeup latency.
   */
  private static final String DL_OVER_FAIR =
      String.join(
          "\n",
          "duration: 200ms",
          "machine: {preset: small-x86}",
          "kernel: {preempt: PREEMPT, hz: 1000}",
          "workload:",
          "  tasks:",
          "    - {name: hog, cpus: \"0\", program: [{kernel: [{duration: 400us, ends: none}]}, {user: 5us}]}",
          "    - {name: dl, cpus: \"0\", policy: deadline, dl_runtime: 90us, dl_deadline: 100us,",
          "       program: [{sleep: {duration: 1ms, sample: lat}}, {user: 2us}]}",
          "");

  @Test
  void deadlineOverFairSetsNeedReschedAndPreemptsAtTheTimerIrqExit() throws Exception {
    Run vol = run(DL_OVER_FAIR, "auto-voluntary");
    Run none = run(DL_OVER_FAIR, "auto-none");
    Run full = run(DL_OVER_FAIR, "full");
    // NR is set by the higher-class wakeup: the hog is preempted at the timer IRQ's exit, in the
    // middle of its preemptible kernel segment, as under PREEMPT_DYNAMIC full.
    assertThat(metric(vol, "count")).isGreaterThan(100);
    assertThat(metric(vol, "max")).isLessThan(20_000);
    assertThat(metric(vol, "mean"))
        .isCloseTo(metric(full, "mean"), org.assertj.core.data.Percentage.withPercentage(10));
    // auto-none sets only LAZY: the deadline task waits for the hog's exit to user.
    assertThat(metric(none, "mean")).isGreaterThan(100_000);
  }

  /**
   * Two fair tasks on CPU 0: the hog as above, and a nice -20 waker whose short virtual deadline
   * makes EEVDF's wakeup_preempt_fair() ask for a reschedule (RUN_TO_PARITY off so that the hog's
   * current request is not protected).
   */
  private static final String FAIR_OVER_FAIR =
      String.join(
          "\n",
          "duration: 200ms",
          "machine: {preset: small-x86}",
          "kernel: {preempt: PREEMPT, hz: 1000, features: {RUN_TO_PARITY: false},"
              + " params: {sched.timer_slack: 0}}", // the waker's sample is then its wakeup latency
          // alone
          "workload:",
          "  tasks:",
          "    - {name: hog, cpus: \"0\", program: [{kernel: [{duration: 400us, ends: none}]}, {user: 5us}]}",
          "    - {name: waker, cpus: \"0\", nice: -20, program: [{sleep: {duration: 1ms, sample: lat}}, {user: 2us}]}",
          "");

  @Test
  void fairOverFairSetsOnlyLazyAndWaitsForReturnToUser() throws Exception {
    Run vol = run(FAIR_OVER_FAIR, "auto-voluntary");
    Run full = run(FAIR_OVER_FAIR, "auto-full");
    assertThat(metric(vol, "count")).isGreaterThan(100);
    // auto-full: NR, preempted at the timer IRQ's exit.
    assertThat(metric(full, "max")).isLessThan(20_000);
    // auto-voluntary: LAZY only; the IRQ exit ignores it, so the waker waits for the end of the
    // hog's 400 us kernel segment (its exit to user): on average about half of it.
    assertThat(metric(vol, "mean")).isGreaterThan(100_000);
    assertThat(metric(vol, "max")).isLessThan(450_000);
  }

  /** The hog never returns to user within a tick: only the tick upgrade ends the wait. */
  private static final String FAIR_OVER_KERNEL_HOG =
      String.join(
          "\n",
          "duration: 300ms",
          "machine: {preset: small-x86}",
          "kernel: {preempt: PREEMPT, hz: 1000, features: {RUN_TO_PARITY: false},"
              + " params: {sched.timer_slack: 0}}", // the waker's sample is then its wakeup latency
          // alone
          "workload:",
          "  tasks:",
          "    - {name: hog, cpus: \"0\", program: [{kernel: [{duration: 50ms, ends: none}]}, {user: 5us}]}",
          "    - {name: waker, cpus: \"0\", nice: -20, program: [{sleep: {duration: 1ms, sample: lat}}, {user: 2us}]}",
          "");

  @Test
  void aLazyBitOnAKernelHogIsUpgradedByTheTick() throws Exception {
    Run vol = run(FAIR_OVER_KERNEL_HOG, "auto-voluntary");
    assertThat(metric(vol, "count")).isGreaterThan(50);
    // Without the upgrade the waker would wait up to 50 ms for the hog's exit to user; the
    // RESCHED_TICK that follows the LAZY bit upgrades it within the hog's slice plus a tick.
    assertThat(metric(vol, "max")).isLessThan(10_000_000);
  }
}
