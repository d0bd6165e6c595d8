package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RT push and pull: a waiting RT task moves to a CPU that runs below it. */
class RtPushPullTest {
  @Test
  void aWaitingRtTaskIsPushedOrPulledToTheCpuThatDropsBelowIt() {
    // A (prio 50) and C (prio 60) are pinned to CPUs 0 and 1 and run 2 ms of every 3 ms, out of
    // phase; B (prio 10) may run on either. When B waits behind one of them, the other CPU is
    // free (or soon): the CPU whose RT task sleeps pulls B (balance_rt), and a CPU that picks its
    // own RT task pushes B to the free one (find_lowest_rq).
    Kernel k =
        TestKernels.kernel(
            String.join(
                "\n",
                "duration: 200ms",
                "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
                "workload:",
                "  tasks:",
                "    - {name: a, policy: fifo, rt_priority: 50, cpus: \"0\",",
                "       program: [{user: 2ms}, {sleep: 1ms}]}",
                "    - {name: c, policy: fifo, rt_priority: 60, cpus: \"1\", start: 1500us,",
                "       program: [{user: 2ms}, {sleep: 1ms}]}",
                "    - {name: b, policy: fifo, rt_priority: 10, start: 100us,",
                "       program: [{user: 700us}, {sleep: 100us}]}",
                ""));
    Task b = k.tasks.get(2);
    boolean[] ranOn = new boolean[2];
    long waitingBehindRtWithAFreeCpu = 0;
    for (long us = 200; us < 200_000; us += 10) {
      k.run(us * 1000);
      if (b.onCpu) {
        ranOn[b.cpu] = true;
      } else if (b.onRq) {
        Cpu other = k.cpus[1 - b.cpu];
        if (other.curr.idleTask && other.phase == Cpu.P_IDLE_STATE) {
          waitingBehindRtWithAFreeCpu++;
        }
      }
    }
    assertThat(ranOn).containsOnly(true);
    assertThat(TestKernels.counter(k, "rt.pushes") + TestKernels.counter(k, "rt.pulls"))
        .isPositive();
    // Never left waiting long while the other CPU sits idle (samples every 10 us).
    assertThat(waitingBehindRtWithAFreeCpu).isLessThan(20);
  }

  @Test
  void aPreemptedRtTaskIsPushedOnceItIsOffTheCpu() {
    // b (prio 10) runs alone on CPU 0; a (prio 50, pinned to 0) wakes there at 1 ms. The pick's
    // balance callback runs after b is off the CPU (finish_task_switch()) and pushes b to CPU 1.
    Kernel k =
        TestKernels.kernel(
            String.join(
                "\n",
                "duration: 20ms",
                "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
                "workload:",
                "  tasks:",
                "    - {name: b, policy: fifo, rt_priority: 10, program: [{user: 6ms}, {sleep: 14ms}]}",
                "    - {name: a, policy: fifo, rt_priority: 50, cpus: \"0\", start: 1ms,",
                "       program: [{user: 1ms}, {sleep: 19ms}]}",
                ""));
    Task b = k.tasks.get(0);
    k.run(900_000);
    assertThat(b.onCpu && b.cpu == 0).isTrue();
    k.run(1_100_000);
    assertThat(b.onCpu && b.cpu == 1).isTrue();
    assertThat(TestKernels.counter(k, "rt.pushes")).isEqualTo(1);
  }
}
