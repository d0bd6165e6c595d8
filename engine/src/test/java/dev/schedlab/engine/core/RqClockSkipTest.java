package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The rq clock a switch reads. {@code wakeup_preempt()} asks the next {@code __schedule()} to keep
 * the clock the wakeup read ({@code rq_clock_skip_update()}: the idle task is always queued, and so
 * is a running task), so a woken task is charged from its activation, the rest of the interrupt and
 * the idle exit included, and the task it preempts only up to that activation. {@code
 * set_next_entity()} starts the next task's accounting at the clock of that {@code __schedule()}.
 */
class RqClockSkipTest {
  @Test
  void aTaskWokenOnAnIdleCpuIsChargedFromItsWakeup() {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 2, 1)
            .virtualized(true) // the idle exit restarts the tick and writes the timer MSR
            .noJitter()
            .tasks(task("sleeper").cpus("1").program(sleep(2 * MS), user(10_000), block("never")))
            .kernel();
    Task t = named(k, "sleeper");
    k.run(MS); // asleep, CPU 1 idle
    long before = t.sumExec;
    long woken = stepUntil(k, () -> t.onRq);
    long switchedIn = stepUntil(k, () -> k.cpus[1].curr == t);
    stepUntil(k, () -> k.cpus[1].curr != t); // blocked: the switch charged it

    assertThat(switchedIn - woken).as("the idle exit after the wakeup").isGreaterThan(1_000);
    assertThat(t.sumExec - before)
        .as("charged from the wakeup, not from the switch")
        .isGreaterThanOrEqualTo(switchedIn - woken + 10_000);
  }

  @Test
  void thePreemptedTaskIsChargedUpToTheWakeupAndTheWakeeFromIt() {
    Kernel k = rtOverAHog();
    Task hog = named(k, "hog");
    Task rt = named(k, "rt");
    long woken = stepUntil(k, () -> rt.onRq && k.cpus[1].curr == hog);
    long hogAtWakeup = hog.sumExec;
    long hogStart = hog.execStart;
    long switchedIn = stepUntil(k, () -> k.cpus[1].curr == rt);

    assertThat(hogStart).as("the activation charged the hog up to the wakeup").isEqualTo(woken);
    assertThat(switchedIn).as("the timer interrupt's tail").isGreaterThan(woken);
    assertThat(hog.sumExec).as("nothing after the wakeup is the hog's").isEqualTo(hogAtWakeup);
    assertThat(rt.execStart).as("the wakee's accounting starts at the wakeup").isEqualTo(woken);
  }

  @Test
  void aSwitchNoWakeupAskedForReadsTheClock() {
    Kernel k = rtOverAHog();
    Task hog = named(k, "hog");
    Task rt = named(k, "rt");
    stepUntil(k, () -> k.cpus[1].curr == rt);
    long rtBefore = rt.sumExec;
    long rtStart = rt.execStart;
    long switchedBack = stepUntil(k, () -> k.cpus[1].curr == hog);

    assertThat(rt.sumExec - rtBefore)
        .as("the exit's switch reads the clock: rt is charged up to it")
        .isEqualTo(switchedBack - rtStart);
    assertThat(hog.execStart)
        .as("the hog's accounting starts at that switch")
        .isEqualTo(switchedBack);
  }

  @Test
  void aRemoteWakeupDuringTheSwitchChargesNextOnlyFromItsPick() {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 2, 1)
            .noJitter()
            .tasks(
                task("sleeper").cpus("1").program(sleep(2 * MS), user(MS)),
                task("other").cpus("1").program(block("never")))
            .kernel();
    Task sleeper = named(k, "sleeper");
    Task other = named(k, "other");
    k.run(MS); // both asleep, CPU 1 idle
    assertThat(k.cpus[1].curr.idleTask).isTrue();
    stepUntil(k, () -> k.cpus[1].curr == sleeper);
    assertThat(k.cpus[1].phase).isEqualTo(Cpu.P_SCHED);
    long before = sleeper.sumExec;

    k.thisCpu = 0;
    k.pathCost = 0;
    k.sched.wakeUp(other, 0); // activates on CPU 1 inside its switch window: update_curr() there

    assertThat(sleeper.sumExec - before)
        .as("the two-millisecond sleep is not run time")
        .isLessThan(MS);
  }

  /** CPU 1: a fair hog, and an RT task that wakes from a sleep at 1.5 ms, runs 5 us and exits. */
  private static Kernel rtOverAHog() {
    return TestRun.run()
        .duration(10 * MS)
        .cpus(1, 2, 1)
        .noJitter()
        .tasks(
            task("hog").cpus("1").program(user(100 * MS)),
            task("rt").cpus("1").fifo(50).program(sleep(MS + MS / 2), user(5_000), exit()))
        .kernel();
  }

  /** Runs a nanosecond at a time until {@code done} holds; returns the time it first did. */
  private static long stepUntil(Kernel k, BooleanSupplier done) {
    while (!done.getAsBoolean()) {
      k.run(k.now + 1);
    }
    return k.now;
  }

  private static Task named(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }
}
