package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import org.junit.jupiter.api.Test;

/**
 * A CPU whose idle entries keep meeting an interrupt that arrived while IRQs were off still enters
 * the chosen state (MWAIT returns at once) and the governor reflects a zero residency, as
 * cpuidle_reflect() does. An ipistorm target on the EPYC preset is such a CPU: the IPI sent into
 * its schedule_idle() window is pending when it next reaches its idle state. (A mechanism test of
 * the engine kept here because ipistorm is a lab tool.)
 */
class IpistormIdleEntryTest {
  private static final String IPISTORM =
      String.join(
          "\n",
          "duration: 50ms",
          "machine: {preset: epyc-2s}",
          "kernel: {preempt: voluntary, hz: 1000}",
          "workload: {tools: [{ipistorm: \"numipi=2000 single=1 offset=8 cpulist=8 wait=1\"}]}",
          "");

  /** A counter of the run's metrics (0 when never counted). */
  private static long counter(RunResult r, String name) {
    return ((Number) r.metrics().getOrDefault(name, 0L)).longValue();
  }

  @Test
  void entriesWithAnInterruptPendingTeachTheGovernorThatTheCpuWakesAtOnce() throws Exception {
    Scenario s = ToolRunner.load(IPISTORM);
    RunResult r = ToolRunner.run(s);
    assertThat(counter(r, "idle.entries_irq_pending")).isGreaterThan(100);
    // Learning the short intervals, menu keeps the tick on the target: the tick stops are the
    // other CPUs' one each (plus a few), not one per call on the target.
    assertThat(counter(r, "tick.stops")).isLessThan(s.nrCpus() + 100);
  }

  @Test
  void aTargetWokenEveryFewMicrosecondsPollsBecauseC1WouldWakeTooSlowly() throws Exception {
    // menu learns sub-microsecond idle periods; while the tick runs the prediction caps the
    // exit-latency limit, which C1's 1 us exit latency exceeds: the target stays in POLL.
    RunResult r = ToolRunner.run(ToolRunner.load(IPISTORM.replace("epyc-2s", "icelake-2s")));
    assertThat(counter(r, "idle.entries.POLL")).isGreaterThan(500);
    assertThat(counter(r, "idle.entries.C1")).isZero();
    assertThat(counter(r, "idle.entries.C1E")).isZero();
  }
}
