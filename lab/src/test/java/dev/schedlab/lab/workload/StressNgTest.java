package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StressNgTest {
  @Test
  void percentileIndexIsFloorOfNTimesP() {
    long[] v = new long[10_000];
    for (int i = 0; i < v.length; i++) {
      v[i] = v.length - i; // 10000 .. 1, unsorted
    }
    CyclicStats s = CyclicStats.of(v);
    // sorted[i] = i + 1; index floor(10000 * 95.40 / 100) = 9540
    assertThat(s.percentiles().get("95.40")).isEqualTo(9541);
    assertThat(s.percentiles().get("25.00")).isEqualTo(2501);
    assertThat(s.percentiles().get("99.99")).isEqualTo(10_000); // = max for N = 10000
    assertThat(CyclicStats.index(10_000, 99.99)).isEqualTo(9999);
    assertThat(s.mean()).isCloseTo(5000.5, within(1e-9));
  }

  @Test
  void modeIsMostFrequentAndStddevIsPopulation() {
    CyclicStats s = CyclicStats.of(new long[] {5, 3, 3, 9, 5, 3});
    assertThat(s.mode()).isEqualTo(3);
    assertThat(s.min()).isEqualTo(3);
    assertThat(s.max()).isEqualTo(9);
    double mean = 28 / 6.0;
    double var =
        (2 * Math.pow(5 - mean, 2) + 3 * Math.pow(3 - mean, 2) + Math.pow(9 - mean, 2)) / 6;
    assertThat(s.stddev()).isCloseTo(Math.sqrt(var), within(1e-9));
  }

  @Test
  void cyclicKeepsOnlyTheFirst10000SamplesAndDefaultsToDeadline() throws Exception {
    Scenario s = ToolRunner.load(ToolRunner.tiny(2, "1100ms", "stress-ng", "--cyclic 1"));
    TaskSpec t = s.workload().tasks().get(0);
    assertThat(t.policy()).isEqualTo("deadline");
    assertThat(t.dlRuntimeNs()).isEqualTo(90_000);
    assertThat(t.dlDeadlineNs()).isEqualTo(100_000);
    assertThat(s.workload().sampleCaps()).containsEntry("stress-ng/cyclic/0", 10_000);
    RunResult r = ToolRunner.run(s);
    assertThat(r.rawSamples().get("stress-ng/cyclic/0")).hasSize(10_000);
    @SuppressWarnings("unchecked")
    Map<String, Object> c =
        (Map<String, Object>)
            ((Map<String, Object>)
                    ((Map<String, Object>) Reports.json(s.workload().tools(), r).get("stress-ng"))
                        .get("report"))
                .get("cyclic");
    assertThat(c.get("samples")).isEqualTo(10_000);
    assertThat(Reports.text(s.workload().tools(), r))
        .contains(
            "cyclic: sched SCHED_DEADLINE: 100000 ns delay, 10000 samples", "99.99%:", "std.dev.");
  }

  @Test
  void mmapAndCpuWorkersOnePerCpu() throws Exception {
    Scenario s =
        ToolRunner.load(
            ToolRunner.tiny(
                3, "10ms", "stress-ng", "--mmap 0 --cpu 0 --cpu-load 50 --cpu-load-slice 2"));
    assertThat(s.workload().tasks())
        .extracting(TaskSpec::name)
        .containsExactly(
            "stress-ng-mmap/0",
            "stress-ng-mmap/1",
            "stress-ng-mmap/2",
            "stress-ng-cpu/0",
            "stress-ng-cpu/1",
            "stress-ng-cpu/2",
            "kworker/0:vmstat",
            "kworker/1:vmstat",
            "kworker/2:vmstat");
    RunResult r = ToolRunner.run(s);
    assertThat(r.events()).isPositive();
  }

  @Test
  void twoMmapToolsShareEachCpusVmstatKworker() throws Exception {
    Scenario s =
        ToolRunner.load(
            ToolRunner.tiny(2, "10ms", "stress-ng", "--mmap 1")
                + "    - stress-ng: \"--mmap 1 --cpu 1\"\n");
    assertThat(s.workload().tasks())
        .extracting(TaskSpec::name)
        .containsExactly(
            "stress-ng-mmap/0",
            "kworker/0:vmstat",
            "kworker/1:vmstat",
            "stress-ng#1-mmap/0",
            "stress-ng#1-cpu/0");
    assertThat(ToolRunner.run(s).events()).isPositive();
  }

  @Test
  void mmapBytesTakesItsSuffixesUpToOneGigabyte() throws Exception {
    Scenario s =
        ToolRunner.load(ToolRunner.tiny(2, "10ms", "stress-ng", "--mmap 1 --mmap-bytes 8k"));
    assertThat(s.workload().tasks()).hasSize(1 + 2); // and each CPU's vmstat kworker
    for (String bad : List.of("2g", "1025m", "1t", "1k", "0", "-4k", "8x")) {
      assertThatThrownBy(
              () ->
                  ToolRunner.load(
                      ToolRunner.tiny(2, "10ms", "stress-ng", "--mmap 1 --mmap-bytes " + bad)))
          .as(bad)
          .isInstanceOf(ScenarioException.class)
          .hasMessageContaining("--mmap-bytes: expected");
    }
  }

  @Test
  void cpuLoadAlternatesBusyAndSleepToTheAverageLoad() {
    var p = StressNg.cpuProgram(80, 10);
    assertThat(p).hasSize(2);
    assertThat(((dev.schedlab.engine.config.StepSpec.User) p.get(0)).duration().meanNs())
        .isEqualTo(10e6);
    assertThat(((dev.schedlab.engine.config.StepSpec.Sleep) p.get(1)).duration().meanNs())
        .isEqualTo(2.5e6);
  }
}
