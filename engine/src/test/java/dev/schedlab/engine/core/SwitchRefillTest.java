package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.mark;
import static dev.schedlab.engine.core.Steps.wake;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * A ring of N tasks on one CPU, each waking the next through a wait queue: with {@code
 * latency.switch_refill} set, a task switched in after N - 1 others pays refill × (1 − keep^(N−2)),
 * so a pair pays nothing and a ring of six pays most of it at every hop.
 */
class SwitchRefillTest {
  private static final long REFILL = 1_000;
  private static final long KEEP_PCT = 64;
  private static final long DURATION = 50 * MS;

  /** Rounds the token made around a ring of {@code n} tasks in the run. */
  private static long rounds(int n, long refillNs) {
    TestRun.Task[] ring = new TestRun.Task[n];
    ring[0] = task("t0").program(wake("q1", false), block("q0"), kernel(US), mark("round"));
    for (int i = 1; i < n; i++) {
      ring[i] = task("t" + i).program(block("q" + i), kernel(US), wake("q" + ((i + 1) % n), false));
    }
    Kernel k =
        TestRun.run()
            .duration(DURATION)
            .cpus(1, 1, 1)
            .param(Param.COST_JITTER, 0)
            .param(Param.SWITCH_REFILL, refillNs)
            .param(Param.SWITCH_REFILL_KEEP_PCT, KEEP_PCT)
            .tasks(ring)
            .kernel();
    k.run(DURATION);
    return k.metrics.counter("mark.round").value;
  }

  @Test
  void twoTasksTakingTurnsPayNothing() {
    long off = rounds(2, 0);
    assertThat(off).isGreaterThan(1000);
    assertThat(rounds(2, REFILL)).isBetween(off - 1, off);
  }

  @Test
  void aRingOfSixPaysTheRefillOfFourOthersAtEveryHop() {
    long off = rounds(6, 0);
    long on = rounds(6, REFILL);
    double extraPerHop = ((double) DURATION / on - (double) DURATION / off) / 6;
    double expected = REFILL * (1 - Math.pow(KEEP_PCT / 100.0, 4)); // 832 ns
    assertThat(extraPerHop).isBetween(expected * 0.97, expected * 1.03);
  }

  @Test
  void offByDefault() {
    assertThat(Param.SWITCH_REFILL.defaultValue()).isZero();
  }
}
