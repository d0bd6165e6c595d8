package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.SchedlabProbe.Report;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The model of the calibration probe: each mode's figure follows from the parameter table, so a
 * calibration can invert it.
 */
class SchedlabProbeTest {
  private static Map<String, Object> report(String args, String params) throws Exception {
    return report(
        "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
        args,
        params);
  }

  private static Map<String, Object> report(String machine, String args, String params)
      throws Exception {
    String yaml =
        String.join(
            "\n",
            "duration: 10s",
            machine,
            "kernel: {params: {cost.jitter_pct: 0" + params + "}}",
            "workload:",
            "  tools:",
            "    - schedlab-probe: \"" + args + "\"",
            "");
    Scenario s = ToolRunner.load(yaml);
    RunResult r = ToolRunner.run(s);
    return s.workload().tools().get(0).report().json(r);
  }

  private static long n(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).longValue();
  }

  @Test
  void aSyscallCostsOneEntryOneExitAndItsBody() throws Exception {
    long a =
        n(
            report("syscall 1000", ", cost.syscall_entry: 100, cost.exit_to_user: 100"),
            "ns_per_call");
    long b =
        n(
            report("syscall 1000", ", cost.syscall_entry: 300, cost.exit_to_user: 400"),
            "ns_per_call");
    assertThat(b - a).isEqualTo(500);
  }

  @Test
  void aPipeRoundTripOnOneCpuSwitchesTwice() throws Exception {
    long a = n(report("pipe 0 0 1000", ", cost.ctx_switch: 600"), "ns_per_roundtrip");
    long b = n(report("pipe 0 0 1000", ", cost.ctx_switch: 1600"), "ns_per_roundtrip");
    // Two switches a round trip; at some of them the partner, woken while delayed, preempts the
    // writer (its requeue keeps the lag the writer's unaccounted run gives it, model.md
    // "Wakeups"), and which ones moves with the cost, so the rest of the path's cost moves a
    // little.
    assertThat(b - a).isBetween(1_950L, 2_050L);
  }

  @Test
  void theWakeOfABusyCpuWaitsForTheIpi() throws Exception {
    Map<String, Object> fast = report("wake 0 1 200 1000000 1", ", latency.ipi_same_socket: 500");
    Map<String, Object> slow = report("wake 0 1 200 1000000 1", ", latency.ipi_same_socket: 5500");
    assertThat(n(fast, "samples")).isEqualTo(200);
    assertThat(n(slow, "p50") - n(fast, "p50")).isBetween(4_900L, 5_100L);
  }

  @Test
  void theWriteThatWakesABusyCpuPaysTheGuestIpiExit() throws Exception {
    String guest =
        "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states:"
            + " poll-only, virtualized: true}";
    Map<String, Object> a = report(guest, "wake 0 1 200 1000000 1", ", cost.vm_ipi_exit: 0");
    Map<String, Object> b = report(guest, "wake 0 1 200 1000000 1", ", cost.vm_ipi_exit: 12000");
    assertThat(n(b, "write_p50") - n(a, "write_p50")).isBetween(11_900L, 12_100L);
  }

  @Test
  void aTimerProbeSleepsWithoutSlackOnAnIdleCpu() throws Exception {
    Map<String, Object> m = report("timer 1 300 500000 0", "");
    assertThat(n(m, "samples")).isEqualTo(300);
    assertThat(n(m, "p50")).isPositive().isLessThan(20_000); // no 50 us timer slack
  }

  @Test
  void badArgumentsAreRefused() {
    assertThatThrownBy(() -> report("pipe 0 7 10", "")).hasMessageContaining("CPU 7 is not on");
    assertThatThrownBy(() -> report("wake 0 1", "")).hasMessageContaining("takes 5 numbers");
    assertThatThrownBy(() -> report("fork 3", "")).hasMessageContaining("expected syscall N");
  }

  @Test
  void theReportPrintsKeyValueLines() {
    assertThat(new Report("syscall", 10, null, null).getClass()).isNotNull();
  }
}
