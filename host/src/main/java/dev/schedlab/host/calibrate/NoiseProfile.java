package dev.schedlab.host.calibrate;

import dev.schedlab.engine.config.NoiseSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The noise profile from the gaps a spinning task saw on each CPU: the gaps of the tick, which the
 * model makes itself, are told apart by their phase (they recur every tick at the same offset of a
 * CPU's jiffies), and the others are binned by length in factors of two, each bin with its rate per
 * second per CPU.
 */
final class NoiseProfile {
  /** How far from its CPU's tick phase a gap may start and still be the tick's (ns). */
  static final long TICK_WINDOW_NS = 25_000;

  /** What the gaps held: the profile and the tick gaps found. */
  record Result(NoiseSpec noise, long tickGaps, long tickGapMedianNs, long otherGaps) {}

  private NoiseProfile() {}

  /**
   * @param gapsPerCpu per CPU, pairs of gap start (CLOCK_MONOTONIC ns) and length
   * @param seconds how long each CPU was watched
   * @param tickNs the tick period
   * @param minNs the shortest gap the probe recorded (the first bin's start)
   */
  static Result of(List<long[]> gapsPerCpu, double seconds, long tickNs, long minNs) {
    List<Long> ticks = new ArrayList<>();
    List<Long> other = new ArrayList<>();
    for (long[] pairs : gapsPerCpu) {
      boolean[] tick = tickGaps(pairs, tickNs);
      for (int i = 0; i < pairs.length / 2; i++) {
        (tick[i] ? ticks : other).add(pairs[2 * i + 1]);
      }
    }
    int cpus = Math.max(1, gapsPerCpu.size());
    List<NoiseSpec.Bin> bins = new ArrayList<>();
    long max = other.stream().mapToLong(Long::longValue).max().orElse(0);
    for (long from = minNs; seconds > 0 && from <= max; from *= 2) {
      long lo = from;
      long n = other.stream().filter(g -> g >= lo && g < 2 * lo).count();
      if (n > 0) {
        bins.add(new NoiseSpec.Bin(lo, 2 * lo, n / seconds / cpus));
      }
    }
    long[] t = ticks.stream().mapToLong(Long::longValue).sorted().toArray();
    return new Result(
        new NoiseSpec(bins), t.length, t.length == 0 ? 0 : t[t.length / 2], other.size());
  }

  /**
   * Which gaps of one CPU are its tick's: those starting within {@link #TICK_WINDOW_NS} of the
   * phase (start modulo the tick period) around which most gaps start.
   */
  static boolean[] tickGaps(long[] pairs, long tickNs) {
    int n = pairs.length / 2;
    long[] phase = new long[n];
    for (int i = 0; i < n; i++) {
      phase[i] = Math.floorMod(pairs[2 * i], tickNs);
    }
    long[] sorted = phase.clone();
    Arrays.sort(sorted);
    long best = 0;
    int bestCount = 0;
    for (int i = 0, j = 0; i < n; i++) { // a window starting at each phase, circular
      while (j < i + n && wrapped(sorted, j, tickNs) - sorted[i] <= 2 * TICK_WINDOW_NS) {
        j++;
      }
      if (j - i > bestCount) {
        bestCount = j - i;
        best = sorted[i] + TICK_WINDOW_NS;
      }
    }
    boolean[] tick = new boolean[n];
    for (int i = 0; i < n; i++) {
      long d = Math.abs(phase[i] - Math.floorMod(best, tickNs));
      tick[i] = bestCount > 1 && Math.min(d, tickNs - d) <= TICK_WINDOW_NS;
    }
    return tick;
  }

  private static long wrapped(long[] sorted, int j, long tickNs) {
    return j < sorted.length ? sorted[j] : sorted[j - sorted.length] + tickNs;
  }
}
