package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import org.junit.jupiter.api.Test;

/**
 * Priority-inheritance mutexes (glibc's PTHREAD_PRIO_INHERIT on a PI futex): user-space fast paths,
 * and {@code futex_lock_pi()}'s rt_mutex lending a waiter's priority to the owner on any kernel.
 */
class PiFutexTest {
  private static TestRun oneCpu() {
    return TestRun.run().duration(30 * MS).cpus(1, 1, 1).idleStates("poll-only").noJitter();
  }

  private static long stamp(Kernel k, String comm, String key) {
    long[] v = k.metrics.rawSamples().get("clock/" + comm + "/" + key);
    assertThat(v).as(comm + " " + key).hasSize(1);
    return v[0];
  }

  /**
   * low (FIFO 10) holds the mutex for 4 ms of user work; high (FIFO 90) wants it at 1 ms; mid (FIFO
   * 50) computes 10 ms from 2 ms. All on one CPU.
   */
  private static Kernel inversion(StepSpec lock, StepSpec unlock, TestRun r) {
    StepSpec atHigh = new StepSpec.SleepAbs(MS);
    StepSpec atMid = new StepSpec.SleepAbs(2 * MS);
    Kernel k =
        r.tasks(
                task("low").fifo(10).program(lock, user(4 * MS), unlock, exit()),
                task("high")
                    .fifo(90)
                    .program(atHigh, lock, new StepSpec.Clock("got"), unlock, exit()),
                task("mid")
                    .fifo(50)
                    .program(atMid, user(10 * MS), new StepSpec.Clock("done"), exit()))
            .kernel();
    k.run(30 * MS);
    return k;
  }

  @Test
  void theOwnerInheritsTheWaitersPriorityAndKeepsTheMediumTaskOut() {
    Kernel k =
        inversion(
            new StepSpec.PiMutexLock("m"),
            new StepSpec.PiMutexUnlock("m"),
            oneCpu().lock("m", LockSpec.Kind.RT_MUTEX));
    // low runs at high's priority once high waits: mid stays out until low unlocks at ~4 ms
    assertThat(stamp(k, "high", "got")).isBetween(4 * MS, 4 * MS + 200_000);
    assertThat(stamp(k, "mid", "done")).isGreaterThan(stamp(k, "high", "got"));
  }

  @Test
  void withoutInheritanceTheMediumTaskDelaysTheHighOne() {
    // The contrast: glibc's default mutex lends nothing; mid preempts low at 2 ms.
    Kernel k = inversion(new StepSpec.MutexLock("m"), new StepSpec.MutexUnlock("m"), oneCpu());
    assertThat(stamp(k, "high", "got")).isGreaterThan(stamp(k, "mid", "done"));
  }

  @Test
  void anUncontendedPiMutexStaysInUserSpace() {
    Kernel k =
        oneCpu()
            .lock("m", LockSpec.Kind.RT_MUTEX)
            .tasks(
                task("t")
                    .program(
                        new StepSpec.Clock("start"),
                        new StepSpec.Loop(
                            50,
                            java.util.List.of(
                                new StepSpec.PiMutexLock("m"),
                                user(10_000),
                                new StepSpec.PiMutexUnlock("m"))),
                        new StepSpec.Clock("end"),
                        exit()))
            .kernel();
    k.run(5 * MS);
    assertThat(stamp(k, "t", "end") - stamp(k, "t", "start")).isEqualTo(50 * 10_000);
  }

  @Test
  void aConditionWaitRetakesItsPiMutexWithInheritance() {
    // high waits on c with the PI mutex; low signals it holding the mutex for 4 ms, so high's
    // retake (pthread_cond_wait()'s __pthread_mutex_cond_lock()) lends low its priority.
    StepSpec lock = new StepSpec.PiMutexLock("m");
    StepSpec unlock = new StepSpec.PiMutexUnlock("m");
    Kernel k =
        oneCpu()
            .lock("m", LockSpec.Kind.RT_MUTEX)
            .tasks(
                task("high")
                    .fifo(90)
                    .program(
                        lock,
                        new StepSpec.CondWait("c", "m", true),
                        new StepSpec.Clock("got"),
                        unlock,
                        exit()),
                task("low")
                    .fifo(10)
                    .program(
                        new StepSpec.SleepAbs(MS),
                        lock,
                        new StepSpec.Signal("c", false),
                        user(4 * MS),
                        unlock,
                        exit()),
                task("mid")
                    .fifo(50)
                    .program(
                        new StepSpec.SleepAbs(2 * MS),
                        user(10 * MS),
                        new StepSpec.Clock("done"),
                        exit()))
            .kernel();
    k.run(30 * MS);
    assertThat(stamp(k, "high", "got")).isBetween(5 * MS, 5 * MS + 200_000);
    assertThat(stamp(k, "mid", "done")).isGreaterThan(stamp(k, "high", "got"));
  }

  @Test
  void aSignalBetweenTheWaitersUnlockAndItsSleepIsNotLost() {
    // glibc queues the waiter before it unlocks: w's contended unlock hands the mutex to s, which
    // preempts w before its futex_wait() and signals; w then finds the signal and does not sleep.
    StepSpec lock = new StepSpec.PiMutexLock("m");
    StepSpec unlock = new StepSpec.PiMutexUnlock("m");
    Kernel k =
        oneCpu()
            .lock("m", LockSpec.Kind.RT_MUTEX)
            .tasks(
                task("w")
                    .fifo(50)
                    .program(
                        lock,
                        user(2 * MS),
                        new StepSpec.CondWait("c", "m", true),
                        new StepSpec.Clock("woke"),
                        unlock,
                        exit()),
                task("s")
                    .fifo(90)
                    .program(
                        new StepSpec.SleepAbs(MS),
                        lock,
                        new StepSpec.Signal("c", false),
                        new StepSpec.Clock("signalled"),
                        unlock,
                        exit()))
            .kernel();
    k.run(30 * MS);
    assertThat(stamp(k, "s", "signalled")).isGreaterThan(2 * MS);
    assertThat(stamp(k, "w", "woke")).isGreaterThan(stamp(k, "s", "signalled"));
    assertThat(k.liveTasks).isZero();
  }

  @Test
  void aConditionWaitWithoutItsPiMutexFailsAtOnce() {
    // glibc's PI unlock checks the owner: EPERM, and pthread_cond_wait() returns without waiting.
    Kernel k =
        oneCpu()
            .lock("m", LockSpec.Kind.RT_MUTEX)
            .tasks(
                task("t")
                    .program(
                        new StepSpec.CondWait("c", "m", true), new StepSpec.Clock("back"), exit()))
            .kernel();
    k.run(5 * MS);
    assertThat(stamp(k, "t", "back")).isLessThan(MS);
    assertThat(k.liveTasks).isZero();
  }
}
