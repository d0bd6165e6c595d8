package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
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
        TestRun.run()
            .duration(200 * MS)
            .cpus(1, 2, 1)
            .idleStates("poll-only")
            .tasks(
                task("a").fifo(50).cpus("0").program(user(2 * MS), sleep(MS)),
                task("c").fifo(60).cpus("1").start(1500 * US).program(user(2 * MS), sleep(MS)),
                task("b").fifo(10).start(100 * US).program(user(700 * US), sleep(100 * US)))
            .kernel();
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
}
