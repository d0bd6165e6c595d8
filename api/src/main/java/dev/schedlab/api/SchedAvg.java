package dev.schedlab.api;

import dev.schedlab.api.view.LoadAvgView;

/**
 * One PELT signal ({@code struct sched_avg}) with the arithmetic of kernel/sched/pelt.c: time in
 * units of 1024 ns, periods of 1024 units (about 1 ms), geometric decay with y^32 = 1/2 from the
 * kernel's 32-entry table of y^n, and averages over {@code LOAD_AVG_MAX - 1024 + period_contrib}. A
 * class or the engine owns each instance; others see it as a {@link LoadAvgView}.
 */
public final class SchedAvg implements LoadAvgView {
  /** {@code SCHED_CAPACITY_SCALE}. */
  public static final int CAPACITY_SCALE = 1024;

  /** {@code LOAD_AVG_PERIOD}: y^32 = 1/2. */
  public static final int LOAD_AVG_PERIOD = 32;

  /** {@code LOAD_AVG_MAX}: the sum of 1024 y^n over all n. */
  public static final int LOAD_AVG_MAX = 47742;

  /** {@code PELT_MIN_DIVIDER}. */
  public static final int PELT_MIN_DIVIDER = LOAD_AVG_MAX - 1024;

  // [src] kernel/sched/sched-pelt.h runnable_avg_yN_inv[]: 2^32 y^n, n = 0..31
  private static final long[] Y_INV = {
    0xffffffffL, 0xfa83b2daL, 0xf5257d14L, 0xefe4b99aL, 0xeac0c6e6L, 0xe5b906e6L,
    0xe0ccdeebL, 0xdbfbb796L, 0xd744fcc9L, 0xd2a81d91L, 0xce248c14L, 0xc9b9bd85L,
    0xc5672a10L, 0xc12c4cc9L, 0xbd08a39eL, 0xb8fbaf46L, 0xb504f333L, 0xb123f581L,
    0xad583ee9L, 0xa9a15ab4L, 0xa5fed6a9L, 0xa2704302L, 0x9ef5325fL, 0x9b8d39b9L,
    0x9837f050L, 0x94f4efa8L, 0x91c3d373L, 0x8ea4398aL, 0x8b95c1e3L, 0x88980e80L,
    0x85aac367L, 0x82cd8698L,
  };

  /** {@code last_update_time}, ns of the PELT clock. */
  public long lastUpdateTime;

  /** {@code load_sum}. */
  public long loadSum;

  /** {@code runnable_sum}. */
  public long runnableSum;

  /** {@code util_sum}. */
  public long utilSum;

  /** {@code period_contrib}: units of the current, incomplete period already accounted. */
  public int periodContrib;

  /** {@code load_avg}. */
  public long loadAvg;

  /** {@code runnable_avg}. */
  public long runnableAvg;

  /** {@code util_avg}. */
  public long utilAvg;

  /** {@code util_est} (a task's EWMA, or a runqueue's sum), without flag bits. */
  public long utilEst;

  /** {@code decay_load()}: {@code val * y^n}. */
  public static long decayLoad(long val, long n) {
    if (n > LOAD_AVG_PERIOD * 63L) {
      return 0;
    }
    int local = (int) n;
    if (local >= LOAD_AVG_PERIOD) {
      val >>>= local / LOAD_AVG_PERIOD;
      local %= LOAD_AVG_PERIOD;
    }
    return mulShr32(val, Y_INV[local]);
  }

  /** {@code mul_u64_u32_shr(a, mul, 32)} without overflow. */
  private static long mulShr32(long a, long mul) {
    long hi = (a >>> 32) * mul;
    long lo = ((a & 0xffffffffL) * mul) >>> 32;
    return hi + lo;
  }

  /** {@code __accumulate_pelt_segments()}. */
  private static long accumulateSegments(long periods, long d1, long d3) {
    long c1 = decayLoad(d1, periods);
    long c2 = LOAD_AVG_MAX - decayLoad(LOAD_AVG_MAX, periods) - 1024;
    return c1 + c2 + d3;
  }

  /** {@code get_pelt_divider()}. */
  public int divider() {
    return PELT_MIN_DIVIDER + periodContrib;
  }

  /**
   * {@code ___update_load_sum()}: accrues the time since the last update at the given levels.
   * Returns true when a period boundary was crossed (the averages are then due).
   */
  public boolean updateLoadSum(long now, long load, long runnable, boolean running) {
    long delta = now - lastUpdateTime;
    if (delta < 0) {
      lastUpdateTime = now;
      return false;
    }
    delta >>>= 10;
    if (delta == 0) {
      return false;
    }
    lastUpdateTime += delta << 10;
    if (load == 0) {
      runnable = 0;
      running = false;
    }
    return accumulate(delta, load, runnable, running) != 0;
  }

  /** {@code accumulate_sum()}; returns the number of periods crossed. */
  private long accumulate(long delta, long load, long runnable, boolean running) {
    long contrib = delta;
    delta += periodContrib;
    long periods = delta / 1024;
    if (periods != 0) {
      loadSum = decayLoad(loadSum, periods);
      runnableSum = decayLoad(runnableSum, periods);
      utilSum = decayLoad(utilSum, periods);
      delta %= 1024;
      if (load != 0) {
        contrib = accumulateSegments(periods, 1024 - periodContrib, delta);
      }
    }
    periodContrib = (int) delta;
    if (load != 0) {
      loadSum += load * contrib;
    }
    if (runnable != 0) {
      runnableSum += (runnable * contrib) << 10;
    }
    if (running) {
      utilSum += contrib << 10;
    }
    return periods;
  }

  /** {@code ___update_load_avg()}: the averages from the sums, {@code load} scaling load_avg. */
  public void updateLoadAvg(long load) {
    int divider = divider();
    loadAvg = load * loadSum / divider;
    runnableAvg = runnableSum / divider;
    utilAvg = utilSum / divider;
  }

  /** Whether every sum and average is zero (no blocked contribution left). */
  public boolean isDecayed() {
    return loadSum == 0
        && runnableSum == 0
        && utilSum == 0
        && loadAvg == 0
        && runnableAvg == 0
        && utilAvg == 0;
  }

  /** Copies every field of {@code o}. */
  public void copyFrom(SchedAvg o) {
    lastUpdateTime = o.lastUpdateTime;
    loadSum = o.loadSum;
    runnableSum = o.runnableSum;
    utilSum = o.utilSum;
    periodContrib = o.periodContrib;
    loadAvg = o.loadAvg;
    runnableAvg = o.runnableAvg;
    utilAvg = o.utilAvg;
    utilEst = o.utilEst;
  }

  @Override
  public long loadAvg() {
    return loadAvg;
  }

  @Override
  public long runnableAvg() {
    return runnableAvg;
  }

  @Override
  public long utilAvg() {
    return utilAvg;
  }

  @Override
  public long utilEst() {
    return utilEst;
  }

  @Override
  public long lastUpdateNs() {
    return lastUpdateTime;
  }
}
