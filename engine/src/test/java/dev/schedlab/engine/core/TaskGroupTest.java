package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Task groups on one CPU: cpu.weight shares, the group hierarchy, autogroup and cpu.max. */
class TaskGroupTest {
  private static final long SECOND = 1_000_000_000L;

  private static TestRun oneCpu() {
    return TestRun.run().cpus(1, 1, 1).idleStates("poll-only");
  }

  private static double share(Kernel k, String prefix) {
    long sum = 0;
    for (Task t : k.tasks) {
      if (t.comm.startsWith(prefix)) {
        sum += t.sumExec;
      }
    }
    return (double) sum / SECOND;
  }

  @Test
  void twoGroupsOfWeight2To1ShareACpu2To1() {
    Kernel k =
        oneCpu()
            .cgroup("a", 200, -1, 100 * MS, "hog-a")
            .cgroup("b", 100, -1, 100 * MS, "hog-b")
            .tasks(task("hog-a").program(user(S)), task("hog-b").program(user(S)))
            .kernel();
    k.run(SECOND);
    assertThat(share(k, "hog-a")).isCloseTo(2.0 / 3, within(0.02));
    assertThat(share(k, "hog-b")).isCloseTo(1.0 / 3, within(0.02));
  }

  @Test
  void aGroupSharesAmongItsTasksNotWithTheOtherGroupsTasks() {
    // Equal weights: group a's three tasks together get what b's single task gets.
    Kernel k =
        oneCpu()
            .cgroup("a", "many")
            .cgroup("b", "one")
            .tasks(task("many").count(3).program(user(S)), task("one").program(user(S)))
            .kernel();
    k.run(SECOND);
    assertThat(share(k, "many")).isCloseTo(0.5, within(0.02));
    assertThat(share(k, "one")).isCloseTo(0.5, within(0.02));
    assertThat(share(k, "many/0")).isCloseTo(1.0 / 6, within(0.02));
  }

  @Test
  void autogroupGivesEachSessionAnEqualShare() {
    TestRun.Task many = task("many").count(4).program(user(S));
    TestRun.Task one = task("one").program(user(S));
    Kernel flat = oneCpu().autogroup(false).tasks(many, one).kernel();
    flat.run(SECOND);
    assertThat(share(flat, "one")).isCloseTo(0.2, within(0.02));
    Kernel auto = oneCpu().autogroup(true).tasks(many, one).kernel();
    auto.run(SECOND);
    assertThat(share(auto, "one")).isCloseTo(0.5, within(0.02));
    assertThat(auto.taskGroups).hasSize(3); // root + two sessions
  }

  @Test
  void cpuMax50msPer100msGivesHalfTheCpuInThePeriodTimersPattern() {
    Kernel k =
        oneCpu()
            .cgroup("capped", 100, 50 * MS, 100 * MS, "hog") // cpu.max "50000 100000"
            .tasks(task("hog").program(user(S)))
            .kernel();
    Task hog = k.tasks.get(0);
    int runningEarly = 0;
    int runningLate = 0;
    for (int p = 1; p < 10; p++) {
      k.run(p * 100_000_000L + 25_000_000L);
      runningEarly += hog.onCpu ? 1 : 0;
      k.run(p * 100_000_000L + 75_000_000L);
      runningLate += hog.onCpu ? 1 : 0;
    }
    k.run(SECOND);
    // The quota runs out 50 ms into each period (the timer started with the first runtime
    // request at t = 0): running in the first half, throttled and idle in the second.
    assertThat(runningEarly).isEqualTo(9);
    assertThat(runningLate).isZero();
    assertThat(share(k, "hog")).isCloseTo(0.5, within(0.01));
    assertThat(TestKernels.counter(k, "fair.throttles")).isBetween(9L, 11L);
    assertThat(TestKernels.counter(k, "fair.unthrottles")).isBetween(9L, 10L);
    assertThat(k.cpus[0].curr.idleTask).isTrue(); // throttled at the end of its tenth period
  }
}
