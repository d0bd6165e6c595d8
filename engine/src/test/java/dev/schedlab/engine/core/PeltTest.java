package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.api.SchedAvg;
import dev.schedlab.api.view.LoadAvgView;
import org.junit.jupiter.api.Test;

/**
 * PELT against the kernel's arithmetic: y^32 = 1/2 over 1024 us periods, a running task's util_avg
 * converging to its duty cycle x 1024, and the RT signal of the runqueue.
 */
class PeltTest {
  /** One PELT period, ns (1024 units of 1024 ns). */
  private static final double PERIOD_NS = 1024.0 * 1024.0;

  /** One CPU running task {@code t}. */
  private static Kernel oneCpu(TestRun.Task t) {
    return TestRun.run().cpus(1, 1, 1).idleStates("poll-only").noJitter().tasks(t).kernel();
  }

  @Test
  void decayTableHalvesEvery32Periods() {
    // y^0 is 0xffffffff / 2^32 in the table, so a halving loses at most one unit.
    assertThat(SchedAvg.decayLoad(1 << 20, 32)).isBetween((1L << 19) - 1, 1L << 19);
    assertThat(SchedAvg.decayLoad(1 << 20, 64)).isBetween((1L << 18) - 1, 1L << 18);
    // y^16 = 1/sqrt(2)
    assertThat((double) SchedAvg.decayLoad(1_000_000, 16)).isCloseTo(707_106.8, within(2.0));
    assertThat(SchedAvg.decayLoad(1_000_000, 32 * 63 + 1)).isZero();
  }

  @Test
  void anAlwaysRunningTaskApproaches1024WithTheKernelsTimeConstant() {
    Kernel k = oneCpu(task("t").program(user(S)));
    Task t = null;
    for (long ms = 1; ms <= 200; ms++) {
      k.run(ms * 1_000_000L);
      t = k.cpus[0].curr;
      if (t.idleTask) {
        continue;
      }
      LoadAvgView a = t.loadAvg();
      // post_init_entity_util_avg(): a new task on an idle CPU starts at half the capacity, 512;
      // from there util_avg = 1024 - 512 y^n after n periods of running, recomputed from the
      // sum at each period boundary (so it lags by up to one period).
      double n = a.lastUpdateNs() / PERIOD_NS;
      double upper = 1024 - 512 * Math.pow(0.5, n / 32);
      double lower = 1024 - 512 * Math.pow(0.5, (n - 1) / 32);
      assertThat((double) a.utilAvg()).as("util_avg at %d ms", ms).isBetween(lower - 3, upper + 3);
    }
    assertThat(t.loadAvg().utilAvg()).isBetween(1000L, 1024L);
    // One nice-0 task: load_avg = weight x load_sum / divider -> 1024; the runqueue follows.
    assertThat(t.loadAvg().loadAvg()).isBetween(1000L, 1024L);
    assertThat(k.cpus[0].cfsAvg().utilAvg()).isBetween(1000L, 1024L);
    assertThat(k.cpus[0].cfsAvg().runnableAvg()).isBetween(1000L, 1024L);
  }

  @Test
  void aPeriodicTasksUtilConvergesToItsDutyCycle() {
    // 3 ms of every 10 ms: util_avg oscillates around 0.3 x 1024 = 307.
    Kernel k = oneCpu(task("t").program(user(3 * MS), sleep(7 * MS)));
    Task t = firstRunning(k);
    k.run(400_000_000L);
    long sum = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    int samples = 0;
    for (long us = 400_000; us < 600_000; us += 100) {
      k.run(us * 1000);
      long u = t.loadAvg().utilAvg();
      sum += u;
      min = Math.min(min, u);
      max = Math.max(max, u);
      samples++;
    }
    double mean = (double) sum / samples;
    assertThat(mean).isCloseTo(0.3 * 1024, within(0.04 * 1024));
    // The ripple of a 10 ms period: 3 ms of growth and 7 ms of decay around the mean.
    assertThat(min).isLessThan((long) mean);
    assertThat(max).isGreaterThan((long) mean).isLessThan(400);
    // util_est keeps the utilisation seen at each dequeue, the top of the ripple.
    assertThat(t.loadAvg().utilEst()).isBetween((long) mean, max);
  }

  @Test
  void utilisationIsCapacityInvariant() {
    // 2 ms of work every 10 ms on a half-capacity CPU takes 4 ms, but the PELT clock runs at half
    // speed while busy and catches up while idle: util_avg is that of 2 ms in 10, 0.2 x 1024.
    Kernel k =
        TestRun.run()
            .cpus(1, 2, 1)
            .idleStates("poll-only")
            .capacity(1, 512)
            .noJitter()
            .tasks(task("t").cpus("1").program(user(2 * MS), sleepUntil(10 * MS)))
            .kernel();
    assertThat(k.cpus[1].capacityOrig()).isEqualTo(512);
    long sum = 0;
    int samples = 0;
    long busy = 0;
    for (long us = 300_000; us < 500_000; us += 100) {
      k.run(us * 1000);
      sum += k.cpus[1].cfsAvg().utilAvg();
      busy += k.cpus[1].curr.idleTask ? 0 : 1;
      samples++;
    }
    assertThat((double) busy / samples).isCloseTo(0.4, within(0.03)); // half speed: 4 ms of 10
    assertThat((double) sum / samples).isCloseTo(0.2 * 1024, within(0.03 * 1024));
  }

  @Test
  void anRtTaskBuildsTheRunqueuesRtSignalNotTheFairOne() {
    Kernel k = oneCpu(task("t").fifo(10).program(user(5 * MS), sleep(5 * MS)));
    long sum = 0;
    int samples = 0;
    for (long ms = 300; ms < 500; ms++) {
      k.run(ms * 1_000_000L);
      sum += k.cpus[0].rtAvg().utilAvg();
      samples++;
    }
    assertThat((double) sum / samples).isCloseTo(512, within(40.0));
    assertThat(k.cpus[0].cfsAvg().utilAvg()).isZero();
    assertThat(k.cpus[0].dlAvg().utilAvg()).isZero();
    RqPelt.updateCapacity(k.cpus[0]);
    assertThat(k.cpus[0].capacity).isLessThan(1024 - 300);
  }

  /** Runs until CPU 0 runs a task and returns it. */
  private static Task firstRunning(Kernel k) {
    for (long us = 1; us < 10_000; us++) {
      k.run(us * 1000);
      if (!k.cpus[0].curr.idleTask) {
        return k.cpus[0].curr;
      }
    }
    throw new AssertionError("no task ran in 10 ms");
  }
}
