package dev.schedlab.engine.core;

/**
 * cpumask operations on a CPU set packed 64 CPUs to a {@code long}: the shape of the kernel's
 * {@code struct cpumask}, for the sets the hot paths read (the idle CPUs, a domain's span) without
 * the bounds checks and indirection of {@link java.util.BitSet}.
 *
 * <p>Kernel reference: {@code include/linux/cpumask.h} ({@code cpumask_test_cpu}, {@code
 * cpumask_next}, {@code cpumask_next_and}, {@code cpumask_weight}).
 */
final class CpuMasks {
  private CpuMasks() {}

  /** A mask able to hold {@code nrCpus} CPUs, empty. */
  static long[] ofSize(int nrCpus) {
    return new long[(nrCpus + 63) >>> 6];
  }

  /** {@code cpumask_test_cpu()}. */
  static boolean test(long[] m, int cpu) {
    return (m[cpu >>> 6] & (1L << cpu)) != 0;
  }

  /** Sets ({@code on}) or clears {@code cpu}. */
  static void assign(long[] m, int cpu, boolean on) {
    if (on) {
      m[cpu >>> 6] |= 1L << cpu;
    } else {
      m[cpu >>> 6] &= ~(1L << cpu);
    }
  }

  /** The first CPU at or after {@code from} ({@code >= 0}) in {@code m}, or -1. */
  static int next(long[] m, int from) {
    int u = from >>> 6;
    if (u >= m.length) {
      return -1;
    }
    long w = m[u] & (-1L << from);
    while (w == 0) {
      if (++u == m.length) {
        return -1;
      }
      w = m[u];
    }
    return (u << 6) + Long.numberOfTrailingZeros(w);
  }

  /**
   * The first CPU at or after {@code from} ({@code >= 0}) in both {@code a} and {@code b}, or -1.
   */
  static int nextAnd(long[] a, long[] b, int from) {
    int n = Math.min(a.length, b.length);
    int u = from >>> 6;
    if (u >= n) {
      return -1;
    }
    long w = a[u] & b[u] & (-1L << from);
    while (w == 0) {
      if (++u == n) {
        return -1;
      }
      w = a[u] & b[u];
    }
    return (u << 6) + Long.numberOfTrailingZeros(w);
  }

  /** The number of CPUs of {@code m} in {@code [from, to)} ({@code 0 <= from}). */
  static int weight(long[] m, int from, int to) {
    int end = Math.min(to, m.length << 6);
    if (from >= end) {
      return 0;
    }
    int first = from >>> 6;
    int last = (end - 1) >>> 6;
    long firstMask = -1L << from;
    long lastMask = -1L >>> -end; // the bits below end within its word
    if (first == last) {
      return Long.bitCount(m[first] & firstMask & lastMask);
    }
    int n = Long.bitCount(m[first] & firstMask);
    for (int u = first + 1; u < last; u++) {
      n += Long.bitCount(m[u]);
    }
    return n + Long.bitCount(m[last] & lastMask);
  }
}
