package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A CPU whose idle entries keep meeting an interrupt that arrived while IRQs were off still enters
 * the chosen state (MWAIT returns at once) and the governor reflects a zero residency, as
 * cpuidle_reflect() does. An ipistorm target on the EPYC preset is such a CPU: the IPI sent into
 * its schedule_idle() window is pending when it next reaches its idle state.
 */
class IdleEntryTest {
  private static final String IPISTORM =
      String.join(
          "\n",
          "duration: 50ms",
          "machine: {preset: epyc-2s}",
          "kernel: {preempt: voluntary, hz: 1000}",
          "workload: {tools: [{ipistorm: \"numipi=2000 single=1 offset=8 cpulist=8 wait=1\"}]}",
          "");

  @Test
  void entriesWithAnInterruptPendingTeachTheGovernorThatTheCpuWakesAtOnce() {
    Kernel k = TestKernels.kernel(IPISTORM);
    k.run(50_000_000);
    assertThat(TestKernels.counter(k, "idle.entries_irq_pending")).isGreaterThan(100);
    // Learning the short intervals, menu keeps the tick on the target: the tick stops are the
    // other CPUs' one each (plus a few), not one per call on the target.
    assertThat(TestKernels.counter(k, "tick.stops")).isLessThan(k.cpus.length + 100);
  }

  @Test
  void aTargetWokenEveryFewMicrosecondsPollsBecauseC1WouldWakeTooSlowly() {
    // menu learns sub-microsecond idle periods; while the tick runs the prediction caps the
    // exit-latency limit, which C1's 1 us exit latency exceeds: the target stays in POLL.
    Kernel k = TestKernels.kernel(IPISTORM.replace("epyc-2s", "icelake-2s"));
    k.run(50_000_000);
    assertThat(TestKernels.counter(k, "idle.entries.POLL")).isGreaterThan(500);
    assertThat(TestKernels.counter(k, "idle.entries.C1")).isZero();
    assertThat(TestKernels.counter(k, "idle.entries.C1E")).isZero();
  }
}
