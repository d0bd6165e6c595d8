package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** SCHED_DEADLINE push and pull (deadline.c): global EDF within the affinity masks. */
class DlPushPullTest {
  private static final String MACHINE =
      "machine: {sockets: 1, cores_per_socket: %d, threads_per_core: 1, idle_states: poll-only}";

  private static Kernel kernel(int cpus, String... tasks) {
    StringBuilder y = new StringBuilder("duration: 100ms\n");
    y.append(String.format(MACHINE, cpus)).append("\nworkload:\n  tasks:\n");
    for (String t : tasks) {
      y.append("    - ").append(t).append('\n');
    }
    return TestKernels.kernel(y.toString());
  }

  @Test
  void twoDeadlineTasksStartedOnOneCpuRunOnTwoByPush() {
    // Both are forked on CPU 0 (select_task_rq_dl() keeps fork on the parent's CPU); the pick of
    // the earlier one queues the push of the other to the free CPU (find_later_rq()).
    Kernel k =
        kernel(
            2,
            "{name: a, policy: deadline, dl_runtime: 3ms, dl_deadline: 8ms, dl_period: 10ms,"
                + " program: [{user: 2ms}, {sleep: 8ms}]}",
            "{name: b, policy: deadline, dl_runtime: 3ms, dl_deadline: 9ms, dl_period: 10ms,"
                + " program: [{user: 2ms}, {sleep: 8ms}]}");
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
            "{name: a, policy: deadline, dl_runtime: 6ms, dl_deadline: 8ms, dl_period: 20ms,"
                + " cpus: \"0\", program: [{user: 5ms}, {sleep: 15ms}]}",
            "{name: b, policy: deadline, dl_runtime: 3ms, dl_deadline: 9ms, dl_period: 20ms,"
                + " program: [{user: 2ms}, {sleep: 18ms}]}",
            "{name: c, policy: deadline, dl_runtime: 2ms, dl_deadline: 3ms, dl_period: 20ms,"
                + " cpus: \"1\", program: [{user: 1ms}, {sleep: 19ms}]}");
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
            "{name: a, policy: deadline, dl_runtime: 6ms, dl_deadline: 8ms, dl_period: 20ms,"
                + " cpus: \"0\", program: [{user: 5ms}, {sleep: 15ms}]}",
            "{name: b, policy: deadline, dl_runtime: 3ms, dl_deadline: 9ms, dl_period: 20ms,"
                + " cpus: \"0-1\", program: [{user: 2ms}, {sleep: 18ms}]}",
            "{name: c, policy: deadline, dl_runtime: 2ms, dl_deadline: 3ms, dl_period: 20ms,"
                + " cpus: \"1\", program: [{user: 1ms}, {sleep: 19ms}]}");
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
            "{name: b, policy: deadline, dl_runtime: 8ms, dl_deadline: 18ms, dl_period: 20ms,"
                + " cpus: \"0-1\", program: [{user: 6ms}, {sleep: 14ms}]}",
            "{name: a, policy: deadline, dl_runtime: 2ms, dl_deadline: 3ms, dl_period: 20ms,"
                + " cpus: \"0\", start: 1ms, program: [{user: 1ms}, {sleep: 19ms}]}");
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
