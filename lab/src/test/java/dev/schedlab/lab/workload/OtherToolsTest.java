package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OtherToolsTest {
  @SuppressWarnings("unchecked")
  private static List<Object> keys(Object map) {
    return new ArrayList<>(((Map<?, ?>) map).keySet());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> report(Scenario s, RunResult r, String id) {
    return (Map<String, Object>)
        ((Map<String, Object>) Reports.json(s.workload().tools(), r).get(id)).get("report");
  }

  @Test
  void hackbenchMessageCountIsGroupsSendersReceiversLoops() throws Exception {
    // With DELAY_DEQUEUE on (the default), wakeups that reach a task blocking inside
    // __schedule() requeue it in place (ttwu_runnable): no message may be lost.
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "5s", "hackbench", "-g 2 -f 3 -l 4 -p"));
    RunResult r = ToolRunner.run(s);
    Map<String, Object> rep = report(s, r, "hackbench");
    assertThat(rep.get("messages")).isEqualTo(2L * 3 * 3 * 4);
    assertThat(rep.get("expected_messages")).isEqualTo(2L * 3 * 3 * 4);
    assertThat(rep.get("tasks")).isEqualTo(12);
    assertThat(Reports.text(s.workload().tools(), r))
        .contains(
            "Running in process mode with 2 groups using 6 file"
                + " descriptors each (== 12 tasks)",
            "Each sender will pass 4 messages of 100 bytes")
        .containsPattern("Time: \\d+\\.\\d{3}");
  }

  @Test
  void hackbenchDefaultsAre20SendersAnd20ReceiversPerGroup() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "1ms", "hackbench", "-g 1"));
    assertThat(s.workload().tasks()).hasSize(21); // one sender group of 20, 20 receivers
    assertThat(s.workload().tasks().get(0).count()).isEqualTo(20);
  }

  @Test
  void ipistormFixedCountMakesExactlyNumipiCallsAndReportsRuntime() throws Exception {
    Scenario s =
        ToolRunner.load(
            ToolRunner.tiny(4, "1s", "ipistorm", "numipi=500 single=1 offset=2 cpulist=1 wait=1"));
    TaskSpec t = s.workload().tasks().get(0);
    assertThat(t.cpus()).isEqualTo("1");
    assertThat(t.kthread()).isTrue();
    StepSpec.Loop loop = (StepSpec.Loop) t.program().get(0);
    assertThat(loop.count()).isEqualTo(500);
    assertThat(((StepSpec.Call) loop.body().get(0)).cpu()).isEqualTo(3);
    RunResult r = ToolRunner.run(s);
    Map<String, Object> rep = report(s, r, "ipistorm");
    assertThat(rep.get("calls")).isEqualTo(500L);
    double runtime = (Double) rep.get("runtime_s");
    assertThat(runtime).isPositive().isLessThan(0.1);
    assertThat(r.simNs()).isLessThan(1_000_000_000L); // the run ends when the sender exits
    assertThat(Reports.text(s.workload().tools(), r)).contains("runtime");
  }

  @Test
  void ipistormRejectsUnknownParameter() {
    assertThatThrownBy(
            () -> ToolRunner.load(ToolRunner.tiny(4, "1s", "ipistorm", "numipi=5 bogus=1")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("bogus");
  }

  @Test
  void timerlatHasIrqThreadAndRetUserLatenciesPerCpu() throws Exception {
    Scenario s =
        ToolRunner.load(ToolRunner.tiny(3, "20ms", "rtla", "timerlat top -q -c 1-2 -P f:95"));
    assertThat(s.workload().tasks())
        .extracting(TaskSpec::name)
        .containsExactly("timerlatu/1", "timerlatu/2");
    assertThat(s.workload().tasks())
        .allSatisfy(
            t -> {
              assertThat(t.policy()).isEqualTo("fifo");
              assertThat(t.rtPriority()).isEqualTo(95);
            });
    RunResult r = ToolRunner.run(s);
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> cpus =
        (Map<String, Map<String, Object>>) report(s, r, "rtla").get("cpus");
    assertThat(cpus).containsOnlyKeys("001", "002");
    for (Map<String, Object> c : cpus.values()) {
      assertThat(c).containsKeys("irq", "thread", "ret_user");
      // 20 periods of 1 ms, minus the start phase of up to one period.
      assertThat((Long) c.get("count")).isBetween(18L, 20L);
      @SuppressWarnings("unchecked")
      long irq = (Long) ((Map<String, Object>) c.get("irq")).get("avg");
      @SuppressWarnings("unchecked")
      long ret = (Long) ((Map<String, Object>) c.get("ret_user")).get("avg");
      assertThat(ret).isGreaterThanOrEqualTo(irq);
      // the JSON's key order is fixed (rtla's column order), not a hash order of this JVM
      assertThat(keys(c.get("irq"))).containsExactly("cur", "min", "avg", "max");
    }
    assertThat(keys(((Map<?, ?>) report(s, r, "rtla").get("all")).get("irq")))
        .containsExactly("count", "min", "max", "avg");
    assertThat(Reports.text(s.workload().tools(), r))
        .contains(
            "IRQ Timer Latency (us)",
            "Thread Timer Latency (us)",
            "Ret user Timer Latency (us)",
            "CPU COUNT");
  }

  @Test
  void perfBenchSchedPipeDoesLoopsRoundTrips() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "5s", "perf", "bench sched pipe -l 1000"));
    RunResult r = ToolRunner.run(s);
    Map<String, Object> rep = report(s, r, "perf");
    assertThat(rep.get("loops")).isEqualTo(1000L);
    assertThat((Double) rep.get("usecs_per_op")).isPositive();
    assertThat(Reports.text(s.workload().tools(), r))
        .contains(
            "# Running 'sched/pipe' benchmark:",
            "# Executed 1000 pipe operations between two processes",
            "Total time:",
            "usecs/op",
            "ops/sec");
  }

  @Test
  void perfBenchSchedPipeCutShortByTheDurationSaysItDidNotFinish() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "100us", "perf", "bench sched pipe -l 1000"));
    RunResult r = ToolRunner.run(s);
    Map<String, Object> rep = report(s, r, "perf");
    assertThat(rep).containsEntry("finished", false).doesNotContainKey("usecs_per_op");
    assertThat(Reports.text(s.workload().tools(), r))
        .contains("Not finished")
        .doesNotContain("usecs/op");
  }

  @Test
  void unknownToolIsRejectedWithTheKnownOnes() {
    assertThatThrownBy(() -> ToolRunner.load(ToolRunner.tiny(2, "1ms", "netperf", "-t TCP_RR")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("unknown tool netperf")
        .hasMessageContaining("cyclictest");
  }

  @Test
  void sameScenarioAndSeedGiveTheSameReportBytes() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "20ms", "cyclictest", "-i 100 -t"));
    assertThat(Reports.text(s.workload().tools(), ToolRunner.run(s)))
        .isEqualTo(Reports.text(s.workload().tools(), ToolRunner.run(s)));
  }
}
