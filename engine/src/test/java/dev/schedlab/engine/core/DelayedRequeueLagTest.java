package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.TaskState;
import org.junit.jupiter.api.Test;

/**
 * A thread that wakes every millisecond beside a hog (cyclictest's SCHED_OTHER thread) runs out of
 * lag and blocks with negative lag: a delayed dequeue. Woken before a tick, {@code ttwu_runnable()}
 * has only moved the clock when {@code requeue_delayed_entity()} reads its lag: the hog has not
 * been charged since the thread blocked, so the lag is still negative and kept (DELAY_ZERO zeroes
 * only a positive one). {@code wakeup_preempt()}'s {@code update_curr()} then charges the hog,
 * which gives the thread the lag of the hog's run since it blocked. Charging the hog first would
 * have zeroed that lag, and the thread would block delayed again at its next period.
 */
class DelayedRequeueLagTest {
  private static final long US = 1_000;

  @Test
  void aDelayedThreadWokenBeforeATickKeepsTheLagTheHogsRunGaveIt() {
    Kernel k =
        TestRun.run()
            .duration(2_000 * MS)
            .cpus(1, 1, 1)
            .hz(250)
            .idleStates("poll-only")
            .noJitter()
            .tasks(
                task("hog").program(user(100_000 * MS)),
                task("t").start(100 * US).program(sleepUntil(MS, "t"), user(10 * US)))
            .kernel();
    Task t = k.tasks.stream().filter(x -> x.comm.equals("t")).findFirst().orElseThrow();
    Cpu cpu = k.cpus[0];
    int requeuedBeforeATick = 0;
    int delayedAgainAtOnce = 0;
    boolean asleep = false;
    boolean delayedAtBlock = false;
    boolean watchNextBlock = false;
    long ticksAtBlock = 0;
    while (k.now < 1_900 * MS) {
      k.run(k.now + US);
      if (!asleep && t.state != TaskState.RUNNING) {
        asleep = true;
        delayedAtBlock = t.delayed;
        ticksAtBlock = cpu.ticks;
        if (watchNextBlock && delayedAtBlock) {
          delayedAgainAtOnce++;
        }
        watchNextBlock = false;
      } else if (asleep && t.state == TaskState.RUNNING) {
        asleep = false;
        if (delayedAtBlock && cpu.ticks == ticksAtBlock) {
          requeuedBeforeATick++;
          watchNextBlock = true;
        }
      }
    }
    assertThat(requeuedBeforeATick)
        .as("wakeups of the delayed thread with no tick since it blocked")
        .isGreaterThan(5);
    assertThat(delayedAgainAtOnce)
        .as("of those, periods after which it blocked delayed again")
        .isZero();
  }
}
