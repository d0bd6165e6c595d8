package dev.schedlab.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.scenario.Scenario;
import org.junit.jupiter.api.Test;

class WholeRunScenarioTest {
  private final Scenario sc = WholeRunScenario.build(WholeRunOptions.ns(10), 1);

  @Test
  void machineHas128CpusInTwoSmt2Sockets() {
    assertThat(sc.machine().nrCpus()).isEqualTo(128);
    assertThat(sc.machine().sockets()).isEqualTo(2);
    assertThat(sc.machine().coresPerSocket()).isEqualTo(32);
    assertThat(sc.machine().threadsPerCore()).isEqualTo(2);
    assertThat(sc.machine().coresPerLlc()).isZero();
    assertThat(sc.machine().idleStates()).isEqualTo("icx");
    assertThat(sc.machine().idleGovernor()).isEqualTo("menu");
  }

  @Test
  void kernelIsHz1000Voluntary() {
    assertThat(sc.kernel().hz()).isEqualTo(1000);
    assertThat(sc.kernel().preempt()).isEqualTo("voluntary");
  }

  @Test
  void runsTenSimulatedSecondsWithSeedOneAndNoPlugins() {
    assertThat(sc.durationNs()).isEqualTo(10_000_000_000L);
    assertThat(sc.seed()).isEqualTo(1);
    assertThat(sc.plugins()).isEmpty();
  }

  @Test
  void workloadIs512HogsAnd512Sleepers() {
    assertThat(sc.workload().tasks()).extracting(TaskSpec::count).containsExactly(512, 512);
    assertThat(sc.workload().tasks().stream().mapToInt(TaskSpec::count).sum()).isEqualTo(1024);
    assertThat(sc.workload().tasks()).extracting(TaskSpec::policy).containsOnly("normal");

    TaskSpec hog = sc.workload().tasks().get(0);
    assertThat(hog.program()).containsExactly(new StepSpec.User(Dist.fixed(10_000_000)));

    TaskSpec sleeper = sc.workload().tasks().get(1);
    assertThat(sleeper.program())
        .containsExactly(
            new StepSpec.User(new Dist(Dist.Kind.EXP, 50_000, 0)),
            new StepSpec.Sleep(new Dist(Dist.Kind.EXP, 1_000_000, 0)));
  }

  @Test
  void secondsOptionSetsDuration() {
    WholeRunOptions o = WholeRunOptions.parse("--seconds", "2.5", "--seed", "7");
    Scenario s = WholeRunScenario.build(WholeRunOptions.ns(o.seconds()), o.seed());
    assertThat(s.durationNs()).isEqualTo(2_500_000_000L);
    assertThat(s.seed()).isEqualTo(7);
    assertThat(WholeRunOptions.parse()).isEqualTo(WholeRunOptions.defaults());
    assertThatThrownBy(() -> WholeRunOptions.parse("--baseline-seconds", "1"))
        .hasMessageContaining("unknown option");
  }

  @Test
  void badOptionsAreRejectedByName() {
    assertThatThrownBy(() -> WholeRunOptions.parse("--seconds", "0"))
        .hasMessageContaining("--seconds");
    assertThatThrownBy(() -> WholeRunOptions.parse("--nope", "1"))
        .hasMessageContaining("unknown option --nope");
    assertThatThrownBy(() -> WholeRunOptions.parse("--seconds"))
        .hasMessageContaining("needs a value");
  }

  @Test
  void scalingMachinesKeepFourHogsAndFourSleepersPerCpuTimesTheScale() {
    Scenario s512 = WholeRunScenario.build(1_000_000, 1, 512, 1);
    assertThat(s512.machine().nrCpus()).isEqualTo(512);
    assertThat(s512.machine().sockets()).isEqualTo(8);
    assertThat(s512.workload().tasks()).extracting(TaskSpec::count).containsExactly(2048, 2048);
    Scenario s32 = WholeRunScenario.build(1_000_000, 1, 32, 4);
    assertThat(s32.machine().nrCpus()).isEqualTo(32);
    assertThat(s32.workload().tasks()).extracting(TaskSpec::count).containsExactly(512, 512);
    WholeRunOptions o = WholeRunOptions.parse("--cpus", "1024", "--task-scale", "2", "--runs", "3");
    assertThat(o.cpus()).isEqualTo(1024);
    assertThat(o.taskScale()).isEqualTo(2);
    assertThat(o.runs()).isEqualTo(3);
    assertThatThrownBy(() -> WholeRunOptions.parse("--cpus", "100")).hasMessageContaining("cpus");
    assertThatThrownBy(() -> WholeRunOptions.parse("--runs", "0")).hasMessageContaining("--runs");
  }

  @Test
  void steadyStateBytesPerEventIsTheSecondHalfsAllocationPerEvent() {
    var s = new WholeRunBenchmark.Sample(10_000, 101_000, 1, 1, 250_000, 20, 50_000, 100_000);
    assertThat(s.steadyBytesPerEvent()).isEqualTo(2.0);
    assertThat(s.bytesPerEvent()).isEqualTo(250_000 / 101_000.0);
    var none = new WholeRunBenchmark.Sample(10_000, 0, 1, 1, 250_000, 20, 0, 0);
    assertThat(none.steadyBytesPerEvent()).isNaN();
  }
}
