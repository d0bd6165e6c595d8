package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CyclictestTest {
  @Test
  void intervalLadderIsIPlusKTimesD() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(4, "20ms", "cyclictest", "-i 100 -d 100 -t -m"));
    List<TaskSpec> tasks = s.workload().tasks();
    assertThat(tasks).hasSize(5); // four measurement threads and the main thread
    TaskSpec main = tasks.get(4);
    assertThat(main.name()).isEqualTo("cyclictest/main");
    assertThat(main.policy()).isEqualTo("normal");
    assertThat(((StepSpec.Loop) main.program().get(0)).body().get(0))
        .isEqualTo(new StepSpec.Sleep(dev.schedlab.engine.config.Dist.fixed(10_000_000)));
    for (int k = 0; k < 4; k++) {
      StepSpec.SleepUntil su = firstSleepUntil(tasks.get(k).program());
      assertThat(su.periodNs()).isEqualTo((100 + 100L * k) * 1000);
      assertThat(tasks.get(k).policy()).isEqualTo("normal"); // no -p: SCHED_OTHER
      // no -a: rt-tests 2.x still pins thread k to CPU k (AFFINITY_USEALL)
      assertThat(tasks.get(k).cpus()).isEqualTo(Integer.toString(k));
    }
    assertThat(main.cpus()).isEmpty(); // the main thread is not pinned
    // no --latency: cyclictest writes 0 to /dev/cpu_dma_latency
    assertThat(s.kernel().latencyLimitNs()).isZero();
  }

  @Test
  void threadsStartAtAPhaseDrawnOverOneTickOfTheKernelsHz() throws Exception {
    for (int hz : new int[] {1000, 250}) {
      String text =
          ToolRunner.tiny(2, "20ms", "cyclictest", "-i 1000 -t")
              .replace("workload:", "kernel: {hz: " + hz + "}\nworkload:");
      Scenario s = ToolRunner.load(text);
      StepSpec first = s.workload().tasks().get(0).program().get(0);
      assertThat(first)
          .as("HZ=" + hz)
          .isEqualTo(
              new StepSpec.Sleep(
                  new dev.schedlab.engine.config.Dist(
                      dev.schedlab.engine.config.Dist.Kind.UNIFORM, 0, 1_000_000_000L / hz)));
    }
  }

  @Test
  void histogramKeepsOneIntervalAndLatencyOptionSetsPmQos() throws Exception {
    Scenario s =
        ToolRunner.load(
            ToolRunner.tiny(
                2, "20ms", "cyclictest", "-i 200 -d 50 -t 2 -p 80 -a --latency=1000 -h 100"));
    List<TaskSpec> threads = s.workload().tasks().subList(0, 2);
    for (TaskSpec t : threads) {
      assertThat(firstSleepUntil(t.program()).periodNs()).isEqualTo(200_000);
      assertThat(t.policy()).isEqualTo("fifo");
      assertThat(t.rtPriority()).isEqualTo(80);
    }
    assertThat(threads).extracting(TaskSpec::cpus).containsExactly("0", "1");
    assertThat(s.workload().tasks().get(2).cpus()).isEmpty(); // the main thread is not pinned
    assertThat(s.kernel().latencyLimitNs()).isEqualTo(1_000_000);
  }

  @Test
  void threadsArePinnedRoundRobinAndSmpIgnoresTheAffinityList() throws Exception {
    Scenario more = ToolRunner.load(ToolRunner.tiny(2, "20ms", "cyclictest", "-t 5 -i 1000"));
    assertThat(more.workload().tasks().subList(0, 5))
        .extracting(TaskSpec::cpus)
        .containsExactly("0", "1", "0", "1", "0");
    Scenario list =
        ToolRunner.load(ToolRunner.tiny(4, "20ms", "cyclictest", "-t 3 --affinity=2-3"));
    assertThat(list.workload().tasks().subList(0, 3))
        .extracting(TaskSpec::cpus)
        .containsExactly("2", "3", "2");
    Scenario smp = ToolRunner.load(ToolRunner.tiny(4, "20ms", "cyclictest", "-a 3 -S"));
    assertThat(smp.workload().tasks().subList(0, 4))
        .extracting(TaskSpec::cpus)
        .containsExactly("0", "1", "2", "3");
  }

  @Test
  void reportHasPerThreadCyclesAndMinActAvgMax() throws Exception {
    Scenario s =
        ToolRunner.load(ToolRunner.tiny(2, "10ms", "cyclictest", "-i 100 -d 100 -t 2 -h 50"));
    RunResult r = ToolRunner.run(s);
    Map<String, Object> json = Reports.json(s.workload().tools(), r);
    @SuppressWarnings("unchecked")
    Map<String, Object> rep =
        (Map<String, Object>) ((Map<String, Object>) json.get("cyclictest")).get("report");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> threads = (List<Map<String, Object>>) rep.get("threads");
    assertThat(threads).hasSize(2);
    // -h: both threads use the same 100 us interval: ~100 cycles in 10 ms
    // 10 ms of 100 us periods, after a start phase of up to one tick (1 ms).
    assertThat((Long) threads.get(0).get("cycles")).isBetween(85L, 100L);
    long min = (Long) threads.get(0).get("min");
    long avg = (Long) threads.get(0).get("avg");
    long max = (Long) threads.get(0).get("max");
    assertThat(min).isLessThanOrEqualTo(avg);
    assertThat(avg).isLessThanOrEqualTo(max);
    String text = Reports.text(s.workload().tools(), r);
    assertThat(text).contains("# Histogram", "# Min Latencies:", "# Max Latencies:");
  }

  @Test
  void statusLinesHaveCyclictestColumns() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "10ms", "cyclictest", "-i 1000 -t 2"));
    String text = Reports.text(s.workload().tools(), ToolRunner.run(s));
    assertThat(text)
        .containsPattern(
            "T: 0 \\( *\\d+\\) P: 0 I:1000 C: +\\d+ Min: +\\d+ Act: +\\d+ Avg: +\\d+ Max: +\\d+");
    assertThat(text).contains("I:1500");
  }

  @Test
  void unknownOptionNamesFileLineFieldAndOption() {
    assertThatThrownBy(
            () -> ToolRunner.load(ToolRunner.tiny(2, "10ms", "cyclictest", "-i 100 --bogus")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("t.yaml:5")
        .hasMessageContaining("workload.tools[0].cyclictest")
        .hasMessageContaining("--bogus");
  }

  /**
   * The first absolute periodic sleep of a program (after the start-phase wait, inside the loop).
   */
  static StepSpec.SleepUntil firstSleepUntil(java.util.List<StepSpec> program) {
    for (StepSpec st : program) {
      if (st instanceof StepSpec.SleepUntil su) {
        return su;
      }
      if (st instanceof StepSpec.Loop l) {
        StepSpec.SleepUntil su = firstSleepUntil(l.body());
        if (su != null) {
          return su;
        }
      }
    }
    return null;
  }
}
