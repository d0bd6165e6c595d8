package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** {@code sched_yield()} through the classes' {@code yield_task}: fair and deadline. */
class YieldTest {
  private static TestRun oneCpu() {
    return TestRun.run().duration(60 * MS).cpus(1, 1, 1).idleStates("poll-only").noJitter();
  }

  private static long[] stamps(Kernel k, String comm, String key) {
    long[] v = k.metrics.rawSamples().get("clock/" + comm + "/" + key);
    return v == null ? new long[0] : v;
  }

  /** a computes 50 us and yields; b, queued from 10 us, computes 5 ms. */
  private static Kernel fairPair(TestRun r) {
    Kernel k =
        r.tasks(
                task("a")
                    .program(
                        user(50 * US), new StepSpec.Yield(), new StepSpec.Clock("after"), exit()),
                task("b")
                    .program(
                        new StepSpec.SleepAbs(10 * US),
                        new StepSpec.Clock("start"),
                        user(5 * MS),
                        exit()))
            .kernel();
    k.run(20 * MS);
    return k;
  }

  @Test
  void aFairYieldGivesTheCpuToTheOtherTask() {
    // Without the yield a keeps the CPU under RUN_TO_PARITY; with it b runs its slice first.
    for (boolean forfeit : new boolean[] {false, true}) {
      Kernel k = fairPair(oneCpu().feature(Param.YIELD_FORFEIT, forfeit));
      assertThat(stamps(k, "b", "start")).hasSize(1);
      assertThat(stamps(k, "a", "after")[0])
          .as("forfeit " + forfeit)
          .isGreaterThan(stamps(k, "b", "start")[0] + 500 * US);
    }
  }

  @Test
  void aFairTaskAloneOnItsCpuYieldsToNobody() {
    Kernel k =
        oneCpu()
            .tasks(
                task("a")
                    .program(
                        user(50 * US), new StepSpec.Yield(), new StepSpec.Clock("after"), exit()))
            .kernel();
    k.run(MS);
    assertThat(stamps(k, "a", "after")[0]).isLessThan(60 * US);
  }

  @Test
  void aDeadlineYieldSleepsToTheNextPeriod() {
    // runtime 2 ms per 10 ms; each job of 100 us ends with a yield, so each starts a period
    StepSpec job =
        new StepSpec.Loop(
            3, java.util.List.of(user(100 * US), new StepSpec.Clock("done"), new StepSpec.Yield()));
    Kernel k = oneCpu().tasks(task("dl").deadline(2 * MS, 10 * MS).program(job, exit())).kernel();
    k.run(40 * MS);
    long[] done = stamps(k, "dl", "done");
    assertThat(done).hasSize(3);
    assertThat(done[1] - done[0]).isBetween(9 * MS, 11 * MS);
    assertThat(done[2] - done[1]).isBetween(9 * MS, 11 * MS);
  }
}
