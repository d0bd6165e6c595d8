package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.lockIrqsOff;
import static dev.schedlab.engine.core.Steps.unlock;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-CPU caches: a fixed one drains and refills a batch at a time; the page allocator's pcp
 * list with the v6.7 high auto-tuning follows v6.8 mm/page_alloc.c (nr_pcp_alloc, nr_pcp_high,
 * nr_pcp_free, decay_pcp_high); a segment per cached object lasts as long as the objects moved.
 */
class PerCpuCacheTest {
  private static final int BATCH = 63;

  private static Op.CacheOp op(boolean put, int count, int highMin, int highMax) {
    return new Op.CacheOp(
        new PerCpuCache(1), put, count, BATCH, highMin, new StepSpec.AutoHigh(highMax, 5));
  }

  /** The same operation on another cache object (the state is the cache's, not the op's). */
  private static Op.CacheOp on(PerCpuCache c, Op.CacheOp o) {
    return new Op.CacheOp(c, o.put(), o.count(), o.batch(), o.high(), o.auto());
  }

  /** The refill sizes of {@code n} allocations in a row from an empty list. */
  private static List<Integer> refills(PerCpuCache c, Op.CacheOp get, int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int moved = c.apply(0, get);
      if (moved > 0) {
        out.add(moved);
      }
    }
    return out;
  }

  @Test
  void aFixedCacheRefillsAndDrainsABatch() {
    PerCpuCache c = new PerCpuCache(2);
    Op.CacheOp get = new Op.CacheOp(c, false, 1, BATCH, 0, null);
    Op.CacheOp put = new Op.CacheOp(c, true, 1, BATCH, 252, null);
    assertThat(c.apply(1, get)).isEqualTo(BATCH);
    assertThat(c.count(1)).isEqualTo(62);
    assertThat(c.count(0)).isZero();
    int drains = 0;
    for (int i = 0; i < 252 - 62; i++) {
      drains += c.apply(1, put);
    }
    assertThat(drains).isEqualTo(BATCH); // at 252 a batch goes back
    assertThat(c.count(1)).isEqualTo(252 - BATCH);
  }

  @Test
  void refillsDoubleWithoutAFreeUpToBatchShiftedByTheScaleMax() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp get = on(c, op(false, 1, 1304, 131_072));
    assertThat(refills(c, get, 10_000))
        .startsWith(63, 126, 252, 504, 1008, 2016, 2016, 2016)
        .allMatch(n -> n <= 2016);
    // every refill raised high by its size: high_min plus what came in
    assertThat(c.high(0)).isEqualTo(1304 + 10_000 + c.count(0));
  }

  @Test
  void aRefillNeverFillsPastHighMaxLessABatch() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp get = on(c, op(false, 1, 252, 504));
    // high 315, 441, 504 (capped), 504: max_nr_alloc = high - count - batch caps the fourth
    assertThat(refills(c, get, 63 + 126 + 252 + 441 + 1)).containsExactly(63, 126, 252, 441, 441);
    assertThat(c.high(0)).isEqualTo(504);
  }

  @Test
  void aFreeHalvesTheAllocFactor() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp get = on(c, op(false, 1, 1304, 131_072));
    Op.CacheOp put = on(c, op(true, 1, 1304, 131_072));
    assertThat(refills(c, get, 63 + 126 + 252 + 504)).containsExactly(63, 126, 252, 504);
    c.apply(0, put); // alloc_factor 4 -> 2
    for (int i = c.count(0); i > 0; i--) {
      c.apply(0, get);
    }
    assertThat(refills(c, get, 1)).containsExactly(252);
  }

  @Test
  void consecutiveFreesRaiseHighToThemPlusABatchCappedAtHighMax() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp put = on(c, op(true, 1, 252, 1000));
    int highBefore = 252;
    int first = 0;
    for (int i = 1; i <= 5000; i++) {
      int moved = c.apply(0, put);
      if (first == 0 && moved > 0) {
        first = i;
        // the 252nd free finds the list at high_min: high becomes 252 + 63, and the drain takes
        // the consecutive frees, leaving a batch (nr_pcp_free: clamp(252, 63, 252 - 63))
        assertThat(moved).isEqualTo(189);
        assertThat(c.high(0)).isEqualTo(315);
        assertThat(c.count(0)).isEqualTo(BATCH);
      }
      assertThat(c.high(0)).isBetween(highBefore, 1000);
      highBefore = c.high(0);
    }
    assertThat(first).isEqualTo(252);
    assertThat(c.high(0)).isEqualTo(1000);
  }

  @Test
  void aDrainTakesTheConsecutiveFreesAndLeavesABatch() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp put = on(c, op(true, 1, 252, 100_000));
    for (int i = 0; i < 20_000; i++) {
      int countBefore = c.count(0);
      int highBefore = Math.max(252, c.high(0));
      int moved = c.apply(0, put);
      if (moved > 0) {
        assertThat(countBefore + 1).isGreaterThanOrEqualTo(highBefore);
        assertThat(moved).isBetween(BATCH, Math.min(2016, highBefore - BATCH));
      }
    }
    // free_count stops at batch << 5: high settles at 2016 + 63
    assertThat(c.high(0)).isEqualTo(2016 + BATCH);
  }

  @Test
  void decayLowersHighByAnEighthAndDrainsWhatIsAbove() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp get = on(c, op(false, 1, 1304, 131_072));
    Op.CacheOp put = on(c, op(true, 1, 1304, 131_072));
    Op.CacheOp decay = on(c, op(true, 0, 1304, 131_072));
    for (int i = 0; i < 8192; i++) {
      c.apply(0, get);
    }
    for (int i = 0; i < 8192; i++) {
      assertThat(c.apply(0, put)).isZero(); // the list holds what the refills raised high to
    }
    int high = c.high(0);
    int count = c.count(0);
    assertThat(count).isGreaterThan(high - high / 8);
    int drained = c.apply(0, decay);
    int expectHigh = Math.max(count - (BATCH << 5), high - (high >> 3));
    assertThat(c.high(0)).isEqualTo(expectHigh);
    assertThat(drained).isEqualTo(count - expectHigh);
    assertThat(c.count(0)).isEqualTo(expectHigh);
    // repeated, high comes down to high_min and the list with it
    for (int i = 0; i < 100; i++) {
      c.apply(0, decay);
    }
    assertThat(c.high(0)).isEqualTo(1304);
    assertThat(c.count(0)).isEqualTo(1304);
    assertThat(c.apply(0, decay)).isZero();
  }

  @Test
  void decayOfAnUnusedListDrainsNothing() {
    PerCpuCache c = new PerCpuCache(1);
    assertThat(c.apply(0, on(c, op(true, 0, 1304, 131_072)))).isZero();
    assertThat(c.high(0)).isEqualTo(1304);
  }

  /**
   * A worker's attempts on one CPU (P allocations, P frees, twice per attempt, as stress-ng
   * V0.17.04's): the first refills in growing batches, later attempts find every page on the list
   * and take no zone->lock. P = 1024 is the seed's 256 MB over 64 workers.
   */
  @Test
  void afterTheFirstAttemptAWorkerTakesNoZoneLock() {
    PerCpuCache c = new PerCpuCache(1);
    Op.CacheOp get = on(c, op(false, 1, 1304, 131_072));
    Op.CacheOp put = on(c, op(true, 1, 1304, 131_072));
    int p = 1024;
    List<Integer> first = new ArrayList<>();
    int later = 0;
    for (int attempt = 0; attempt < 20; attempt++) {
      for (int half = 0; half < 2; half++) {
        for (int i = 0; i < p; i++) {
          int moved = c.apply(0, get);
          if (moved > 0 && attempt == 0 && half == 0) {
            first.add(moved);
          } else {
            later += moved;
          }
        }
        for (int i = 0; i < p; i++) {
          later += c.apply(0, put);
        }
      }
    }
    assertThat(first).containsExactly(63, 126, 252, 504, 1008);
    assertThat(later).isZero();
  }

  /** A segment per cached object lasts the objects moved times its draw, under the lock. */
  @Test
  void aPerObjectSegmentLastsAsLongAsTheObjectsMoved() {
    StepSpec.CacheAction get =
        new StepSpec.CacheAction("pcp", false, 1, BATCH, 252, 3, new StepSpec.AutoHigh(100_000, 5));
    StepSpec path =
        kernel(
            Segment.cache(get),
            lockIrqsOff("zone"),
            Segment.perCachedObject(Dist.fixed(10)),
            unlock("zone"));
    Kernel k =
        TestRun.run()
            .duration(5 * MS)
            .cpus(1, 1, 1)
            .lock("zone", LockSpec.Kind.SPINLOCK)
            .tasks(task("w").program(user(100), path))
            .kernel();
    k.run(5 * MS);
    @SuppressWarnings("unchecked")
    Map<String, Object> zone =
        (Map<String, Object>)
            ((Map<String, Object>) k.metricsSnapshot().get("lock_stat")).get("zone");
    // refills of 63, 126, ..., 2016 pages: held 10 ns a page
    assertThat((Long) zone.get("acquisitions")).isGreaterThan(6L);
    assertThat(zone.get("holdtime-min")).isEqualTo(630L);
    assertThat(zone.get("holdtime-max")).isEqualTo(20_160L);
  }
}
