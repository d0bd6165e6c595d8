package dev.schedlab.benchmarks;

import dev.schedlab.engine.sim.Event;
import dev.schedlab.engine.sim.EventQueue;
import java.util.Objects;
import java.util.PriorityQueue;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The engine's future-event list in its steady state against a naive allocating baseline.
 *
 * <p>A fixed population of {@code entities} (N) each owns one pending event. One operation polls
 * the earliest event, advances the clock to it and schedules the next event of the same entity at
 * {@code now + delay}, the delay read from an array precomputed from a seeded {@link
 * SplittableRandom} (so both variants see the same delay sequence and no RNG cost is measured):
 *
 * <ul>
 *   <li>{@link #engineEventQueue}: {@link EventQueue} (a radix heap); the polled {@link Event}
 *       object is re-armed, as the engine's CPUs, timers and tasks do, so nothing is allocated;
 *   <li>{@link #naivePriorityQueue}: {@link PriorityQueue} of {@link NaiveEvent} ordered by (time,
 *       seq), one new object per scheduled event.
 * </ul>
 *
 * <p>HOW TO RUN: {@code java -jar benchmarks/target/benchmarks.jar EventQueueBenchmark} (about 80 s
 * with the defaults below; add {@code -prof gc} for allocation rates).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class EventQueueBenchmark {
  /** Delays are read cyclically from an array of this many entries (a power of two). */
  static final int DELAYS = 1 << 14;

  /** Delays are uniform in [1, MAX_DELAY_NS] ns: ticks, slices and sleeps of up to 1 ms. */
  static final long MAX_DELAY_NS = 1_000_000;

  /** Seed of the delay array. */
  static final long SEED = 42;

  /** Number of entities, each with exactly one pending event (the queue size). */
  @Param({"128", "1024", "16384"})
  public int entities;

  /** The delay array shared by both variants for a given seed. */
  static long[] delays(long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    long[] d = new long[DELAYS];
    for (int i = 0; i < d.length; i++) {
      d[i] = rng.nextLong(1, MAX_DELAY_NS + 1);
    }
    return d;
  }

  static int entities(BenchmarkParams params) {
    return Integer.parseInt(params.getParam("entities"));
  }

  /** The engine's indexed heap, one reusable event per entity. */
  @State(Scope.Thread)
  public static class EngineQueue {
    final EventQueue queue = new EventQueue();

    @SuppressWarnings("NullAway.Init") // set by init(), which @Setup and the tests call first
    long[] delays;

    int cursor;
    long now;

    @Setup
    public void setup(BenchmarkParams params) {
      init(entities(params));
    }

    void init(int n) {
      delays = delays(SEED);
      for (int i = 0; i < n; i++) {
        queue.schedule(new Event(0, i, null), delays[cursor++ & (DELAYS - 1)]);
      }
    }

    /** Take the earliest event and re-arm the same object, as the engine's run loop does. */
    int step() {
      Event e = Objects.requireNonNull(queue.poll()); // n events stay queued
      now = e.time();
      queue.schedule(e, now + delays[cursor++ & (DELAYS - 1)]);
      return e.cpu;
    }
  }

  /** The naive baseline: a new event object per schedule. */
  @State(Scope.Thread)
  public static class NaiveQueue {
    @SuppressWarnings("NullAway.Init") // set by init(), which @Setup and the tests call first
    PriorityQueue<NaiveEvent> queue;

    @SuppressWarnings("NullAway.Init")
    long[] delays;

    int cursor;
    long now;
    long nextSeq;

    @Setup
    public void setup(BenchmarkParams params) {
      init(entities(params));
    }

    void init(int n) {
      delays = delays(SEED);
      queue = new PriorityQueue<>(n);
      for (int i = 0; i < n; i++) {
        queue.add(new NaiveEvent(delays[cursor++ & (DELAYS - 1)], nextSeq++, i));
      }
    }

    /** Poll + allocate-and-add; returns the owner of the polled event. */
    int step() {
      NaiveEvent e = queue.poll();
      now = e.time;
      queue.add(new NaiveEvent(now + delays[cursor++ & (DELAYS - 1)], nextSeq++, e.owner));
      return e.owner;
    }
  }

  /** One op: poll the earliest event, advance time, re-arm the same Event object. */
  @Benchmark
  public void engineEventQueue(EngineQueue s, Blackhole bh) {
    bh.consume(s.step());
  }

  /** One op: poll the earliest event, advance time, allocate and add the entity's next event. */
  @Benchmark
  public void naivePriorityQueue(NaiveQueue s, Blackhole bh) {
    bh.consume(s.step());
  }
}
