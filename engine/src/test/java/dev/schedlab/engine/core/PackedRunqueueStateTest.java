package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.lock;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.unlock;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.config.LockSpec;
import org.junit.jupiter.api.Test;

/**
 * The packed copies of per-CPU state the hot paths read instead of the CPU: the idle map ({@code
 * Kernel.idleCpus}, for wakeup scans), the count of queued tasks above fair ({@code
 * Cpu.nrAboveFair}, for the pick's fast path) and the hrtimer base's order of equal expiries. Each
 * must equal what it copies at every point of a run. The base's floor of soft expiries must make
 * {@code Cpu.anySoftExpired} answer as a scan of the armed timers does.
 */
class PackedRunqueueStateTest {
  /** Runs {@code r} in 20 us steps, checking both copies on every CPU after each step. */
  private static int runChecking(TestRun r, long endNs) {
    Kernel k = r.kernel();
    int checks = 0;
    for (long t = 20 * US; t <= endNs; t += 20 * US) {
      k.run(t);
      for (Cpu c : k.cpus) {
        assertThat(CpuMasks.test(k.idleCpus, c.id))
            .as("idle map of cpu %d at %d ns", c.id, t)
            .isEqualTo(c.isIdle());
        int above = 0;
        for (Task q = c.queuedHead; q != null; q = q.rqNext) {
          above += q.classRank > SchedulingClass.RANK_FAIR ? 1 : 0;
        }
        assertThat(c.nrAboveFair)
            .as("tasks above fair on cpu %d at %d ns", c.id, t)
            .isEqualTo(above);
        checks++;
      }
    }
    return checks;
  }

  @Test
  void bothCopiesFollowWakeupsSleepsAndMixedClasses() {
    TestRun r =
        TestRun.run()
            .duration(20 * MS)
            .tasks(
                task("hog").count(6).program(user(300 * US), sleep(200 * US)),
                task("rt").count(3).fifo(20).program(sleep(150 * US), user(40 * US)),
                task("dl").deadline(50 * US, MS).program(sleep(700 * US), user(30 * US)));
    assertThat(runChecking(r, 20 * MS)).isEqualTo(1000 * 8);
  }

  @Test
  void aQueuedTaskBoostedAboveFairIsCountedWhileBoosted() {
    // CPU 0 only: low (fair) holds S, is preempted by mid (FIFO 10) and boosted to FIFO 50 while
    // queued when high blocks on S (rtmutex PI under PREEMPT_RT); its count follows the boost.
    TestRun r =
        TestRun.run()
            .duration(3 * MS)
            .cpus(1, 1, 1)
            .idleStates("poll-only")
            .preempt("full")
            .preemptRt()
            .lock("S", LockSpec.Kind.SPINLOCK)
            .tasks(
                task("low").program(kernel(lock("S"), segment(MS), unlock("S")), exit()),
                task("mid").fifo(10).program(sleep(100 * US), user(2 * MS), exit()),
                task("high")
                    .fifo(50)
                    .program(
                        sleep(200 * US), kernel(lock("S"), segment(10 * US), unlock("S")), exit()));
    assertThat(runChecking(r, 3 * MS)).isEqualTo(150);
  }

  @Test
  void equalExpiriesFireInArmingOrderAfterRemovals() {
    Kernel k = TestRun.run().duration(MS).cpus(1, 1, 1).tasks(task("t").program(user(MS))).kernel();
    Cpu cpu = k.cpus[0]; // expiries past the run's end: none fires, only the base's order counts
    HrTimer a = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer b = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer c = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer d = new HrTimer(k, 0, (x, now) -> {}, null);
    int before = cpu.nrTimers;
    a.arm(900 * MS);
    b.arm(900 * MS);
    c.arm(800 * MS);
    d.arm(900 * MS);
    // Removing c unlinks it; d, armed last at the same expiry, must still sort after a and b.
    c.cancel();
    assertThat(cpu.nrTimers).isEqualTo(before + 3);
    a.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(b);
    a.arm(900 * MS); // re-armed: now the last of the three
    b.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(d);
    d.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(a);
    a.cancel();
    assertThat(cpu.nrTimers).isEqualTo(before);
  }

  @Test
  void reArmingAnArmedTimerMovesItOnTheBase() {
    Kernel k = TestRun.run().duration(MS).cpus(1, 1, 1).tasks(task("t").program(user(MS))).kernel();
    Cpu cpu = k.cpus[0]; // expiries past the run's end: none fires, only the base's order counts
    HrTimer a = new HrTimer(k, 0, (x, now) -> {}, null);
    HrTimer b = new HrTimer(k, 0, (x, now) -> {}, null);
    int before = cpu.nrTimers;
    a.arm(900 * MS);
    b.arm(800 * MS);
    assertThat(cpu.earliestTimer()).isSameAs(b);
    assertThat(cpu.nextTimerNs()).isEqualTo(800 * MS);
    b.arm(1000 * MS); // still on the base, once, at its new expiry
    assertThat(cpu.nrTimers).isEqualTo(before + 2);
    assertThat(cpu.earliestTimer()).isSameAs(a);
    assertThat(cpu.nextTimerNs()).isEqualTo(900 * MS);
    a.cancel();
    assertThat(cpu.earliestTimer()).isSameAs(b);
    b.cancel();
    assertThat(cpu.nrTimers).isEqualTo(before);
  }

  @Test
  void baseKeepsTheEarliestFirstThroughRandomArmsAndCancels() {
    Kernel k = TestRun.run().duration(MS).cpus(1, 1, 1).tasks(task("t").program(user(MS))).kernel();
    Cpu cpu = k.cpus[0]; // expiries past the run's end: none fires, only the base's order counts
    int before = cpu.nrTimers;
    assertThat(before).isZero(); // the base holds only this test's timers
    HrTimer[] timers = new HrTimer[12];
    long[] expiry = new long[timers.length];
    long[] armedAt = new long[timers.length]; // arming order, kept by a re-arm of an armed timer
    for (int i = 0; i < timers.length; i++) {
      timers[i] = new HrTimer(k, 0, (x, now) -> {}, null);
    }
    java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
    long seq = 0;
    for (int op = 0; op < 5000; op++) {
      int i = rng.nextInt(timers.length);
      if (rng.nextInt(3) == 0) {
        timers[i].cancel();
      } else {
        if (!timers[i].armed()) {
          armedAt[i] = seq++;
        }
        expiry[i] = 900 * MS + rng.nextInt(8) * US; // few values: many equal expiries
        timers[i].arm(expiry[i]);
      }
      int first = -1;
      int armed = 0;
      for (int j = 0; j < timers.length; j++) {
        if (timers[j].armed()) {
          armed++;
          if (first < 0
              || expiry[j] < expiry[first]
              || (expiry[j] == expiry[first] && armedAt[j] < armedAt[first])) {
            first = j;
          }
        }
      }
      assertThat(cpu.nrTimers).isEqualTo(armed);
      assertThat(cpu.earliestTimer()).isSameAs(first < 0 ? null : timers[first]);
      assertThat(cpu.nextTimerNs()).isEqualTo(first < 0 ? Long.MAX_VALUE : expiry[first]);
    }
  }

  @Test
  void softExpiryTestMatchesAScanOfTheArmedTimersThroughRandomArmsAndCancels() {
    Kernel k = TestRun.run().duration(MS).cpus(1, 1, 1).tasks(task("t").program(user(MS))).kernel();
    Cpu cpu = k.cpus[0];
    HrTimer[] timers = new HrTimer[8];
    for (int i = 0; i < timers.length; i++) {
      timers[i] = new HrTimer(k, 0, (x, now) -> {}, null);
    }
    java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
    int expired = 0;
    int notExpired = 0;
    for (int op = 0; op < 20_000; op++) {
      int i = rng.nextInt(timers.length);
      if (rng.nextInt(3) == 0) {
        timers[i].cancel();
      } else {
        timers[i].arm(900 * MS + rng.nextInt(100) * US); // past the run: none fires
      }
      long now = 900 * MS + rng.nextInt(110) * US; // asked at any time, earlier or later
      boolean any = false;
      for (HrTimer t : timers) {
        any |= t.armed() && t.softExpiry <= now;
      }
      assertThat(cpu.anySoftExpired(now)).as("op %d at %d ns", op, now).isEqualTo(any);
      expired += any ? 1 : 0;
      notExpired += any ? 0 : 1;
    }
    assertThat(expired).isPositive(); // both answers were exercised
    assertThat(notExpired).isPositive();
  }
}
