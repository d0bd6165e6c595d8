package dev.schedlab.engine.sim;

import org.jspecify.annotations.Nullable;

/**
 * The future-event list: a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan, 1990) of intrusive
 * doubly-linked buckets. A discrete-event simulation only ever schedules at or after the time of
 * the last event taken, which is exactly the monotone property a radix heap needs.
 *
 * <p>An event of time {@code t} sits in bucket {@code 64 - numberOfLeadingZeros(t ^ last)}, where
 * {@code last} is the time of the last event taken: bucket 0 holds events at {@code last}, bucket
 * {@code b} those that first differ from it at bit {@code b - 1}. Scheduling is an append (no
 * comparisons); cancelling unlinks; taking the minimum pops bucket 0, or first empties the lowest
 * non-empty bucket into lower ones around its minimum. Events of equal time are always in the same
 * bucket and every move keeps list order, so they fire in the order they were (last) scheduled, on
 * every machine. Nothing is allocated.
 */
public final class EventQueue {
  /** Times are non-negative, so {@code t ^ last} has at most 63 significant bits: buckets 0..63. */
  private static final int BUCKETS = 64;

  private final Event[] heads = new Event[BUCKETS];
  private final Event[] tails = new Event[BUCKETS];

  /** Bit b set when bucket b is non-empty. */
  private long nonEmpty;

  private long last;
  private int size;

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
    if (e.bucket >= 0) {
      unlink(e);
    } else {
      size++;
    }
    e.time = time;
    append(e, bucketOf(time));
  }

  /** Removes {@code e} if scheduled. */
  public void cancel(Event e) {
    if (e.bucket >= 0) {
      unlink(e);
      e.bucket = -1;
      size--;
    }
  }

  /** The earliest event, without removing it, or null. Changes nothing. */
  public @Nullable Event peek() {
    if (size == 0) {
      return null;
    }
    if (heads[0] != null) {
      return heads[0];
    }
    Event first = heads[lowestNonEmpty()];
    for (Event x = first.next; x != null; x = x.next) {
      if (x.time < first.time) {
        first = x;
      }
    }
    return first;
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
    if (heads[0] == null) {
      int b = lowestNonEmpty();
      long min = Long.MAX_VALUE;
      for (Event x = heads[b]; x != null; x = x.next) {
        min = Math.min(min, x.time);
      }
      if (min > limit) {
        return null;
      }
      settle(b, min);
    }
    Event e = heads[0];
    if (e.time > limit) {
      return null;
    }
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
    Event e = heads[b];
    heads[b] = null;
    tails[b] = null;
    clearBit(b);
    while (e != null) {
      Event next = e.next;
      append(e, bucketOf(e.time));
      e = next;
    }
  }

  private int lowestNonEmpty() {
    return Long.numberOfTrailingZeros(nonEmpty);
  }

  private void append(Event e, int b) {
    e.bucket = b;
    e.next = null;
    Event t = tails[b];
    e.prev = t;
    if (t == null) {
      heads[b] = e;
      setBit(b);
    } else {
      t.next = e;
    }
    tails[b] = e;
  }

  private void unlink(Event e) {
    int b = e.bucket;
    if (e.prev == null) {
      heads[b] = e.next;
    } else {
      e.prev.next = e.next;
    }
    if (e.next == null) {
      tails[b] = e.prev;
    } else {
      e.next.prev = e.prev;
    }
    if (heads[b] == null) {
      clearBit(b);
    }
    e.prev = null;
    e.next = null;
  }

  private void setBit(int b) {
    nonEmpty |= 1L << b;
  }

  private void clearBit(int b) {
    nonEmpty &= ~(1L << b);
  }
}
