package dev.schedlab.engine.core;

import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The wakeup scan of {@code select_idle_cpu()} over one LLC of a 512-CPU machine (64 CPUs: 0-31 and
 * 256-287, as x86 numbers SMT siblings), from a target that varies per operation.
 *
 * <ul>
 *   <li>{@link #loop}: the CPU-by-CPU walk the fair class does in general: {@link BitSet} span, one
 *       idle probe per CPU until the first idle one, counting the probes;
 *   <li>{@link #mask}: what it does for a task allowed everywhere: {@link CpuMasks#nextAnd} of the
 *       span and the idle mask, the probes counted with {@link CpuMasks#weight}.
 * </ul>
 *
 * <p>{@code idle} CPUs of the LLC are idle (0: the busy LLC of the whole-run benchmark, where the
 * scan walks all 64). Both return the same CPU and probe count ({@code IdleScanBenchmarkTest}).
 *
 * <p>HOW TO RUN: {@code java -jar benchmarks/target/benchmarks.jar IdleScanBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class IdleScanBenchmark {
  static final int CPUS = 512;

  /** Idle CPUs in the LLC. */
  @Param({"0", "1", "8"})
  public int idle;

  final BitSet span = new BitSet();
  final boolean[] idleCpus = new boolean[CPUS];
  long[] spanMask = new long[0];
  final long[] idleMask = CpuMasks.ofSize(CPUS);
  final int[] targets = new int[256];
  int next;

  @Setup
  public void setUp() {
    span.set(0, 32);
    span.set(256, 288);
    spanMask = span.toLongArray();
    SplittableRandom rng = new SplittableRandom(7);
    int[] llc = span.stream().toArray();
    for (int i = 0; i < idle; i++) {
      int c = llc[rng.nextInt(llc.length)];
      idleCpus[c] = true;
      CpuMasks.assign(idleMask, c, true);
    }
    for (int i = 0; i < CPUS; i += 2) {
      if (!span.get(i)) {
        idleCpus[i] = true; // idle CPUs elsewhere: the mask must skip them
        CpuMasks.assign(idleMask, i, true);
      }
    }
    for (int i = 0; i < targets.length; i++) {
      targets[i] = llc[rng.nextInt(llc.length)];
    }
  }

  /** The CPU found (or -1) in the high half, the CPUs probed in the low half. */
  @Benchmark
  public long loop() {
    int target = targets[next++ & (targets.length - 1)];
    return scanLoop(target);
  }

  @Benchmark
  public long mask() {
    int target = targets[next++ & (targets.length - 1)];
    return scanMask(target);
  }

  long scanLoop(int target) {
    int probed = 0;
    for (int pass = 0; pass < 2; pass++) {
      int from = pass == 0 ? target + 1 : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target + 1;
      for (int c = span.nextSetBit(from); c >= 0 && c < to; c = span.nextSetBit(c + 1)) {
        probed++;
        if (idleCpus[c]) {
          return ((long) c << 32) | probed;
        }
      }
    }
    return (-1L << 32) | probed;
  }

  long scanMask(int target) {
    int found = CpuMasks.nextAnd(spanMask, idleMask, target + 1);
    int probed;
    if (found >= 0) {
      probed = CpuMasks.weight(spanMask, target + 1, found + 1);
    } else {
      found = CpuMasks.nextAnd(spanMask, idleMask, 0);
      if (found > target) {
        found = -1;
      }
      int above = CpuMasks.weight(spanMask, target + 1, Integer.MAX_VALUE);
      probed =
          found >= 0
              ? above + CpuMasks.weight(spanMask, 0, found + 1)
              : CpuMasks.weight(spanMask, 0, Integer.MAX_VALUE);
    }
    return ((long) found << 32) | probed;
  }
}
