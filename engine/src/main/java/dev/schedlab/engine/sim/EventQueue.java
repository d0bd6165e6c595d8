package dev.schedlab.engine.sim;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The future-event list: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) of doubly-linked
 * buckets. A discrete-event simulation only ever schedules at or after the time of the last event
 * taken, which is exactly the monotone property a radix heap needs.
 *
 * <p>An event of time {@code t} sits in bucket {@code 64 - numberOfLeadingZeros(t ^ last)}, where
 * {@code last} is the time of the last event taken: bucket 0 holds events at {@code last}, bucket
 * {@code b} those that first differ from it at bit {@code b - 1}. Scheduling is an append (no
 * comparisons); cancelling unlinks; taking the minimum pops bucket 0, or first empties the lowest
 * non-empty bucket into lower ones around its minimum. Events of equal time are always in the same
 * bucket and every move keeps list order, so they fire in the order they were (last) scheduled, on
 * every machine.
 *
 * <p>A scheduled event holds a slot of the queue's own arrays, so the minimum search and the
 * redistribution read dense arrays and touch no event object; the slot is given back when the event
 * leaves the queue. A slot's time and its two links sit side by side (16 bytes, never split across
 * cache lines), so a walk along a bucket reads one line per event. Its bucket is not stored: it is
 * always {@code bucketOf(time)}, because a settle moves {@code last} only within the bits below the
 * bucket it empties, which leaves every higher bucket's index unchanged. Nothing is allocated once
 * the arrays have grown to the largest number of events scheduled at once.
 */
public final class EventQueue {
  /** Times are non-negative, so {@code t ^ last} has at most 63 significant bits: buckets 0..63. */
  private static final int BUCKETS = 64;

  private static final int NIL = -1;

  private final int[] heads = new int[BUCKETS];
  private final int[] tails = new int[BUCKETS];

  /** Longs per slot in {@link #nodes}: the time, then the links (next high, prev low). */
  private static final int STRIDE = 2;

  // By slot: the event; its time and its neighbours in its bucket.
  private Event[] events = new Event[64];
  private long[] nodes = new long[64 * STRIDE];

  /**
   * Slots given back, reused last-in first-out; slots above {@link #used} were never handed out.
   */
  private int[] free = new int[64];

  private int nrFree;
  private int used;

  /** Bit b set when bucket b is non-empty. */
  private long nonEmpty;

  private long last;
  private int size;

  /** An empty queue. */
  public EventQueue() {
    Arrays.fill(heads, NIL);
    Arrays.fill(tails, NIL);
  }

  /** Number of scheduled events. */
  public int size() {
    return size;
  }

  /** Whether no event is scheduled. */
  public boolean isEmpty() {
    return size == 0;
  }

  /**
   * Schedules {@code e} at {@code time}, moving it if it was already scheduled.
   *
   * @throws IllegalArgumentException if {@code time} is before the last event taken
   */
  public void schedule(Event e, long time) {
    if (time < last || time < 0) {
      throw new IllegalArgumentException(
          "event at " + time + " ns is before now (" + last + " ns)");
    }
    int s = e.slot;
    if (s >= 0) {
      unlink(s);
    } else {
      s = allocate(e);
      size++;
    }
    e.time = time;
    nodes[STRIDE * s] = time;
    append(s, bucketOf(time));
  }

  /** Removes {@code e} if scheduled. */
  public void cancel(Event e) {
    int s = e.slot;
    if (s >= 0) {
      unlink(s);
      release(e, s);
      size--;
    }
  }

  /** The earliest event, without removing it, or null. Changes nothing. */
  public @Nullable Event peek() {
    if (size == 0) {
      return null;
    }
    int first = heads[0];
    if (first == NIL) {
      first = heads[lowestNonEmpty()];
      for (int x = next(first); x != NIL; x = next(x)) {
        if (time(x) < time(first)) {
          first = x;
        }
      }
    }
    return events[first];
  }

  /** Removes and returns the earliest event, or null. */
  public @Nullable Event poll() {
    return pollUntil(Long.MAX_VALUE);
  }

  /**
   * Removes and returns the earliest event if it is due at or before {@code limit}, else returns
   * null and leaves the queue as it was (so events may still be scheduled before that event).
   */
  public @Nullable Event pollUntil(long limit) {
    if (size == 0) {
      return null;
    }
    if (heads[0] == NIL) {
      int b = lowestNonEmpty();
      long min = Long.MAX_VALUE;
      for (int x = heads[b]; x != NIL; x = next(x)) {
        min = Math.min(min, time(x));
      }
      if (min > limit) {
        return null;
      }
      settle(b, min);
    }
    int s = heads[0];
    if (time(s) > limit) {
      return null;
    }
    Event e = events[s];
    cancel(e);
    return e;
  }

  private int bucketOf(long time) {
    return 64 - Long.numberOfLeadingZeros(time ^ last);
  }

  /**
   * Empties bucket {@code b} into lower ones around its minimum {@code min}, the new {@code last}.
   */
  private void settle(int b, long min) {
    last = min;
    int x = heads[b];
    heads[b] = NIL;
    tails[b] = NIL;
    nonEmpty &= ~(1L << b);
    while (x != NIL) {
      int after = next(x);
      append(x, bucketOf(time(x)));
      x = after;
    }
  }

  private int lowestNonEmpty() {
    return Long.numberOfTrailingZeros(nonEmpty);
  }

  private int allocate(Event e) {
    int s;
    if (nrFree > 0) {
      s = free[--nrFree];
    } else {
      if (used == events.length) {
        grow();
      }
      s = used++;
    }
    events[s] = e;
    e.slot = s;
    return s;
  }

  private void release(Event e, int s) {
    events[s] = null;
    e.slot = -1;
    free[nrFree++] = s;
  }

  private void grow() {
    int n = 2 * events.length;
    events = Arrays.copyOf(events, n);
    nodes = Arrays.copyOf(nodes, n * STRIDE);
    free = Arrays.copyOf(free, n);
  }

  private long time(int s) {
    return nodes[STRIDE * s];
  }

  private int next(int s) {
    return (int) (nodes[STRIDE * s + 1] >> 32);
  }

  private int prev(int s) {
    return (int) nodes[STRIDE * s + 1];
  }

  private void setLinks(int s, int next, int prev) {
    nodes[STRIDE * s + 1] = ((long) next << 32) | (prev & 0xFFFF_FFFFL);
  }

  private void setNext(int s, int next) {
    setLinks(s, next, prev(s));
  }

  private void setPrev(int s, int prev) {
    setLinks(s, next(s), prev);
  }

  private void append(int s, int b) {
    int t = tails[b];
    setLinks(s, NIL, t);
    if (t == NIL) {
      heads[b] = s;
      nonEmpty |= 1L << b;
    } else {
      setNext(t, s);
    }
    tails[b] = s;
  }

  private void unlink(int s) {
    int b = bucketOf(time(s));
    int p = prev(s);
    int n = next(s);
    if (p == NIL) {
      heads[b] = n;
      if (n == NIL) {
        nonEmpty &= ~(1L << b);
      }
    } else {
      setNext(p, n);
    }
    if (n == NIL) {
      tails[b] = p;
    } else {
      setPrev(n, p);
    }
  }
}
