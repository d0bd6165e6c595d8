package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SCHED_DEADLINE push and pull (deadline.c): global EDF within the affinity masks. */
class DlPushPullTest {
  private static Kernel kernel(int cpus, TestRun.Task... tasks) {
    return TestRun.run()
        .duration(100 * MS)
        .cpus(1, cpus, 1)
        .idleStates("poll-only")
        .tasks(tasks)
        .kernel();
  }

  @Test
  void twoDeadlineTasksStartedOnOneCpuRunOnTwoByPush() {
    // Both are forked on CPU 0 (select_task_rq_dl() keeps fork on the parent's CPU); the pick of
    // the earlier one queues the push of the other to the free CPU (find_later_rq()).
    Kernel k =
        kernel(
            2,
            task("a").deadline(3 * MS, 8 * MS).program(user(2 * MS), sleep(8 * MS)),
            task("b").deadline(3 * MS, 9 * MS).program(user(2 * MS), sleep(8 * MS)));
    Task a = k.tasks.get(0);
    Task b = k.tasks.get(1);
    k.run(500_000);
    assertThat(a.onCpu && b.onCpu).isTrue();
    assertThat(a.cpu).isNotEqualTo(b.cpu);
    assertThat(TestKernels.counter(k, "dl.pushes")).isPositive();
    // Afterwards neither waits long while the other CPU idles (samples every 10 us).
    long waitingWithAnIdleCpu = 0;
    for (long us = 500; us < 100_000; us += 10) {
      k.run(us * 1000);
      for (Task t : new Task[] {a, b}) {
        if (t.onRq && !t.onCpu && k.cpus[1 - t.cpu].curr.idleTask) {
          waitingWithAnIdleCpu++;
        }
      }
    }
    assertThat(waitingWithAnIdleCpu).isLessThan(10);
  }

  @Test
  void aCpuWhoseDeadlineTaskSleepsPullsAnOverloadedRunqueuesWaitingTask() {
    // a (pinned to 0) and b start on CPU 0, c (pinned to 1) on CPU 1 with the earliest deadline:
    // b cannot be pushed (CPU 1's deadline is earlier, CPU 0 is the latest in the cpudl heap and
    // b is not earlier than it). When c sleeps after 1 ms, CPU 1 pulls b (balance_dl()).
    Kernel k =
        kernel(
            2,
            task("a").deadline(6 * MS, 8 * MS).cpus("0").program(user(5 * MS), sleep(15 * MS)),
            task("b").deadline(3 * MS, 9 * MS).program(user(2 * MS), sleep(18 * MS)),
            task("c").deadline(2 * MS, 3 * MS).cpus("1").program(user(MS), sleep(19 * MS)));
    Task b = k.tasks.get(1);
    k.run(500_000);
    assertThat(b.cpu).isZero();
    assertThat(b.onCpu).isFalse(); // waits behind a: no push
    assertThat(TestKernels.counter(k, "dl.pushes")).isZero();
    k.run(1_500_000);
    assertThat(TestKernels.counter(k, "dl.pulls")).isEqualTo(1);
    assertThat(b.cpu).isEqualTo(1);
    assertThat(b.onCpu).isTrue(); // long before a leaves CPU 0 at 5 ms
  }

  @Test
  void aTaskIsNeverMovedOutsideItsAffinity() {
    // As above on three CPUs, b allowed on 0 and 1 only: CPU 2 stays free and idle, yet b is not
    // pushed there (cpudl_find() intersects the free CPUs with b's mask); it is pulled to CPU 1.
    Kernel k =
        kernel(
            3,
            task("a").deadline(6 * MS, 8 * MS).cpus("0").program(user(5 * MS), sleep(15 * MS)),
            task("b").deadline(3 * MS, 9 * MS).cpus("0-1").program(user(2 * MS), sleep(18 * MS)),
            task("c").deadline(2 * MS, 3 * MS).cpus("1").program(user(MS), sleep(19 * MS)));
    Task b = k.tasks.get(1);
    boolean ranOn1 = false;
    for (long us = 10; us < 100_000; us += 10) {
      k.run(us * 1000);
      assertThat(b.cpu).isNotEqualTo(2);
      ranOn1 |= b.onCpu && b.cpu == 1;
    }
    assertThat(ranOn1).isTrue();
    assertThat(k.cpus[2].curr.idleTask).isTrue();
    assertThat(TestKernels.counter(k, "dl.pulls")).isPositive();
  }

  @Test
  void aPreemptedDeadlineTaskIsPushedToTheIdleCpuAfterTheSwitch() {
    // b runs alone on CPU 0; a, pinned to CPU 0 with an earlier deadline, wakes there at 1 ms and
    // preempts b. The pick's balance callback runs after b is off the CPU and pushes it to CPU 1.
    Kernel k =
        kernel(
            2,
            task("b").deadline(8 * MS, 18 * MS).program(user(6 * MS), sleep(14 * MS)),
            task("a")
                .deadline(2 * MS, 3 * MS)
                .cpus("0")
                .start(MS)
                .program(user(MS), sleep(19 * MS)));
    Task b = k.tasks.get(0);
    Task a = k.tasks.get(1);
    k.run(900_000);
    assertThat(b.onCpu && b.cpu == 0).isTrue();
    k.run(1_100_000);
    assertThat(a.onCpu && a.cpu == 0).isTrue();
    assertThat(b.onCpu && b.cpu == 1).isTrue();
    assertThat(TestKernels.counter(k, "dl.pushes")).isEqualTo(1);
  }
}
