package dev.schedlab.engine.idle;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import java.util.Arrays;
import java.util.List;

/**
 * The menu cpuidle governor as of v6.11 (drivers/cpuidle/governors/menu.c: {@code menu_select()},
 * {@code menu_reflect()}, {@code menu_update()}, {@code get_typical_interval()}).
 *
 * <p>Models, per CPU:
 *
 * <ul>
 *   <li>the prediction: the sleep length scaled by the correction factor of its order-of-magnitude
 *       bucket, or the repeating-interval detector's average of the last eight idle durations (kept
 *       in whole microseconds, upside outliers dropped until the spread is small) if lower;
 *   <li>the latency limit: the PM QoS limit, capped by the prediction itself while the tick runs
 *       (the interactivity limit; {@code performance_multiplier()} is 1 without iowaiters), so a
 *       prediction shorter than C1's exit latency keeps the CPU in the polling state;
 *   <li>the state walk: a polling state gives way to the next physical one if that one's exit
 *       latency fits the limit, unless a timer is due within its target residency; then {@code
 *       stop_tick}, with the retained-tick fix-up;
 *   <li>the update after a wake: the measured residency less the state's exit latency (halved when
 *       shorter than twice that latency), a tick wake-up taken as a long idle period, a poll time
 *       limit as the sleep length; the correction factor's running average.
 * </ul>
 *
 * <p>Does not model: the iowait buckets and multiplier (the engine has no iowait), teo.
 *
 * <p>Kernel reference: {@code drivers/cpuidle/governors/menu.c} ({@code menu_select}, {@code
 * menu_reflect}, {@code menu_update}, {@code get_typical_interval}), v6.11.
 */
public final class MenuGovernor implements IdlePolicy {
  private static final int BUCKETS = 6; // the six without iowaiters
  private static final int INTERVALS = 8;
  private static final int RESOLUTION = 1024;
  private static final int DECAY = 8;
  private static final long MAX_INTERESTING = 50_000L * 1_000; // 50 ms
  private static final long UINT_MAX = 0xFFFF_FFFFL;
  private static final long NS_PER_US = 1_000;

  /** The correction factor's fixed point, in ns per us of prediction. */
  private static final long SCALE = (long) RESOLUTION * DECAY * NS_PER_US;

  private MachineView machine;
  private PerCpu[] cpus;

  /** {@code struct menu_device} plus the fields of {@code cpuidle_device} menu reads. */
  private static final class PerCpu {
    final long[] intervalsUs = new long[INTERVALS];
    final long[] correction = new long[BUCKETS];
    int intervalPtr;
    boolean needsUpdate;
    boolean tickWakeup;
    long nextTimerNs;
    int bucket;
    int lastStateIdx;
    long lastResidencyNs;
    boolean stopTick;

    PerCpu() {
      Arrays.fill(correction, (long) RESOLUTION * DECAY); // menu_enable_device()
      // A CPU idle a long time before the run: each interval is what menu_update() records for
      // a long idle period cut short by the tick, 9/10 of MAX_INTERESTING.
      Arrays.fill(intervalsUs, 9 * MAX_INTERESTING / 10 / NS_PER_US);
    }
  }

  @Override
  public void init(MachineView m) {
    machine = m;
    cpus = new PerCpu[m.nrCpus()];
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] = new PerCpu();
    }
  }

  @Override
  public String name() {
    return "menu";
  }

  private static int whichBucket(long durationNs) {
    long limit = 10 * NS_PER_US;
    for (int b = 0; b < BUCKETS - 1; b++, limit *= 10) {
      if (durationNs < limit) {
        return b;
      }
    }
    return BUCKETS - 1;
  }

  /**
   * {@code get_typical_interval()}: the mean of a tight set of recent intervals, else none. The
   * variance is a u64 in the kernel, so it is kept with unsigned arithmetic here.
   */
  private static long typicalIntervalUs(PerCpu d, long predictedUs) {
    long thresh = Long.MAX_VALUE;
    while (true) {
      long min = Long.MAX_VALUE;
      long max = 0;
      long sum = 0;
      int divisor = 0;
      for (long v : d.intervalsUs) {
        if (v <= thresh) {
          sum += v;
          divisor++;
          max = Math.max(max, v);
          min = Math.min(min, v);
        }
      }
      if (min >= predictedUs) {
        return UINT_MAX; // would be discarded anyway
      }
      long avg = sum / divisor;
      long variance = 0;
      for (long v : d.intervalsUs) {
        if (v <= thresh) {
          long diff = v - avg;
          variance += diff * diff;
        }
      }
      variance = Long.divideUnsigned(variance, divisor);
      // stddev <= 20 us, or small against the mean (avg > 6 stddev) with 3/4 of the samples left
      if (Long.compareUnsigned(variance, Long.divideUnsigned(-1L, 36)) <= 0) {
        boolean tight =
            Long.compareUnsigned(avg * avg, variance * 36) > 0 && divisor * 4 >= INTERVALS * 3;
        if (tight || Long.compareUnsigned(variance, 400) <= 0) {
          return avg;
        }
      }
      if (divisor * 4 <= INTERVALS * 3) {
        return UINT_MAX;
      }
      thresh = max - 1; // drop the upside outliers and try again
    }
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    PerCpu d = cpus[cpu.id()];
    List<? extends IdleStateView> states = machine.idleStates();
    if (d.needsUpdate) {
      update(d, states);
      d.needsUpdate = false;
    }
    long latencyReq = latencyLimitNs;
    d.nextTimerNs = Math.max(sleepLengthNs, 0);
    d.bucket = whichBucket(d.nextTimerNs);
    d.stopTick = true;
    if (states.size() <= 1
        || latencyReq == 0
        || ((d.nextTimerNs < states.get(1).targetResidencyNs()
                || latencyReq < states.get(1).exitLatencyNs())
            && states.get(0).enabled())) {
      // State 0 will be used no matter what; keep the tick if it is a polling one.
      d.stopTick = !states.get(0).flagPolling();
      return 0;
    }
    long predictedUs = scaledSleepLengthUs(d);
    long predictedNs = Math.min(predictedUs, typicalIntervalUs(d, predictedUs)) * NS_PER_US;
    long tickNs = machine.tickNs();
    if (cpu.tickStopped()) {
      // A misprediction could strand the CPU in a shallow state: trust the next timer.
      if (predictedNs < tickNs) {
        predictedNs = d.nextTimerNs;
      }
    } else {
      latencyReq = Math.min(latencyReq, predictedNs); // the interactivity limit
    }
    int idx = -1;
    for (int i = 0; i < states.size(); i++) {
      IdleStateView s = states.get(i);
      if (!s.enabled()) {
        continue;
      }
      if (idx == -1) {
        idx = i; // the first enabled state
      }
      if (s.targetResidencyNs() > predictedNs) {
        // A physical state rather than busy polling, unless a timer is due soon enough.
        if (states.get(idx).flagPolling()
            && s.exitLatencyNs() <= latencyReq
            && s.targetResidencyNs() <= d.nextTimerNs) {
          predictedNs = s.targetResidencyNs();
          idx = i;
          break;
        }
        if (predictedNs < tickNs) {
          break;
        }
        if (!cpu.tickStopped()) {
          // A shallow state so far: waking early won't hurt; keep the tick and choose again then.
          predictedNs = states.get(idx).targetResidencyNs();
          break;
        }
        // Shallow so far, and this state fits before the next tick: avoid getting stuck.
        if (states.get(idx).targetResidencyNs() < tickNs && s.targetResidencyNs() <= tickDeltaNs) {
          idx = i;
        }
        return idx;
      }
      if (s.exitLatencyNs() > latencyReq) {
        break;
      }
      idx = i;
    }
    if (idx == -1) {
      idx = 0;
    }
    if ((states.get(idx).flagPolling() || predictedNs < tickNs) && !cpu.tickStopped()) {
      d.stopTick = false;
      if (idx > 0 && states.get(idx).targetResidencyNs() > tickDeltaNs) {
        // The tick stays, and this state would not pay off before it: go shallower.
        for (int i = idx - 1; i >= 0; i--) {
          if (!states.get(i).enabled()) {
            continue;
          }
          idx = i;
          if (states.get(i).targetResidencyNs() <= tickDeltaNs) {
            break;
          }
        }
      }
    }
    return idx;
  }

  /** The sleep length times the bucket's correction factor, rounded to whole microseconds. */
  private static long scaledSleepLengthUs(PerCpu d) {
    long cf = d.correction[d.bucket];
    boolean fits = d.nextTimerNs <= (Long.MAX_VALUE - SCALE / 2) / cf;
    long num = fits ? d.nextTimerNs * cf + SCALE / 2 : Long.MAX_VALUE;
    return Math.min(num / SCALE, UINT_MAX);
  }

  /** The {@code stop_tick} that {@link #select} decided with the state it returned. */
  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    return cpus[cpu.id()].stopTick;
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs) {
    PerCpu d = cpus[cpu.id()];
    d.lastStateIdx = stateIndex;
    d.lastResidencyNs = residencyNs;
    d.needsUpdate = true;
    d.tickWakeup = cpu.idleGotTick();
  }

  /** {@code menu_update()}: learn from the last idle period. */
  private void update(PerCpu d, List<? extends IdleStateView> states) {
    IdleStateView target = states.get(d.lastStateIdx);
    long measuredNs;
    if (d.tickWakeup && d.nextTimerNs > machine.tickNs()) {
      // The tick woke it although the prediction said longer: assume it could have idled long.
      measuredNs = 9 * MAX_INTERESTING / 10;
    } else {
      // The engine passes the sleep length for a poll state left on its time limit.
      measuredNs = d.lastResidencyNs;
      long exit = target.exitLatencyNs();
      measuredNs = measuredNs > 2 * exit ? measuredNs - exit : measuredNs / 2;
    }
    measuredNs = Math.min(measuredNs, d.nextTimerNs);
    long factor = d.correction[d.bucket];
    factor -= factor / DECAY;
    if (d.nextTimerNs > 0 && measuredNs < MAX_INTERESTING) {
      factor += RESOLUTION * measuredNs / d.nextTimerNs;
    } else {
      factor += RESOLUTION; // idle so long that it counts as a perfect prediction
    }
    d.correction[d.bucket] = factor;
    d.intervalsUs[d.intervalPtr] = Math.min(measuredNs / NS_PER_US, UINT_MAX);
    d.intervalPtr = (d.intervalPtr + 1) % INTERVALS;
  }
}
