package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Balancing by PELT load and capacity: misfit migration, spreading and the stopper push. */
class LoadBalanceTest {
  private static TestRun twoCpus() {
    return TestRun.run().cpus(1, 2, 1).idleStates("poll-only");
  }

  @Test
  void aMisfitTaskIsPushedToTheBigCpuThroughTheStopper() {
    // CPU 0 is a little CPU (capacity 512), CPU 1 a big one. The hog starts on CPU 0 (it fits
    // while new); once its utilisation passes 80 % of 512 it is a misfit: CPU 0's busy tick kicks
    // the idle big CPU, whose balance finds the misfit group, cannot detach the running task and
    // asks CPU 0's stopper to push it (active balance).
    Kernel k = twoCpus().capacity(0, 512).tasks(task("hog").program(user(S))).kernel();
    Task hog = k.tasks.get(0);
    k.run(5_000_000L);
    assertThat(hog.cpu).isZero();
    long movedAt = -1;
    for (long ms = 5; ms <= 400 && movedAt < 0; ms++) {
      k.run(ms * 1_000_000L);
      if (hog.cpu == 1) {
        movedAt = ms;
      }
    }
    assertThat(movedAt).as("moved to the big CPU").isPositive();
    // util_avg reaches 0.8 x 512 = 410 from post_init's 256 on a half-speed PELT clock: not at
    // once.
    assertThat(movedAt).isGreaterThan(10);
    assertThat(TestKernels.counter(k, "lb.active_balances")).isPositive();
    assertThat(TestKernels.counter(k, "lb.active_pushes")).isEqualTo(1);
    k.run(600_000_000L);
    assertThat(hog.cpu).isEqualTo(1); // it fits the big CPU: no misfit, no move back
    assertThat(k.cpus[1].misfitTaskLoad).isZero();
  }

  @Test
  void onASymmetricMachineNoMisfitIsRecorded() {
    Kernel k = twoCpus().tasks(task("hog").program(user(S))).kernel();
    k.run(300_000_000L);
    assertThat(k.cpus[0].misfitTaskLoad + k.cpus[1].misfitTaskLoad).isZero();
    assertThat(TestKernels.counter(k, "lb.active_balances")).isZero();
  }

  @Test
  void loadNotTaskCountDecides() {
    // A nice -10 hog (weight 9548), then four nice-0 hogs (1024 each) created on CPU 0 of a
    // 2-CPU machine: the first goes to idle CPU 1, the others stay beside the heavy one (no idle
    // CPU anywhere: sched_balance_find_dst_group() keeps them local). The balancer then moves
    // light tasks by load until CPU 1 holds all four: 1 task against 4, but 9548 against 4096,
    // and it moves nothing more.
    Kernel k =
        twoCpus()
            .tasks(
                task("heavy").nice(-10).program(user(S)),
                task("light").count(4).start(MS).program(user(S)))
            .kernel();
    Task heavy = k.tasks.get(0);
    k.run(2_000_000L);
    assertThat(k.cpus[0].nrRunning).isEqualTo(4);
    k.run(300_000_000L);
    assertThat(heavy.cpu).isZero();
    assertThat(k.cpus[0].nrRunning).isEqualTo(1);
    assertThat(k.cpus[1].nrRunning).isEqualTo(4);
    long moved = TestKernels.counter(k, "lb.migrations");
    assertThat(moved).isEqualTo(3);
    k.run(900_000_000L);
    assertThat(TestKernels.counter(k, "lb.migrations")).isEqualTo(moved);
    assertThat(TestKernels.counter(k, "lb.balance_calls")).isGreaterThan(20);
  }
}
