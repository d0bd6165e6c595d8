package dev.schedlab.engine.sim;

import java.util.Arrays;

/**
 * The future-event list: an indexed binary min-heap of {@link Event}s ordered by (time, sequence).
 * The sequence number, taken when an event is scheduled, breaks ties in insertion order, so equal
 * inputs give the same order on every machine. Each event knows its heap slot, so reschedule and
 * cancel are O(log n) with no search and no allocation.
 */
public final class EventQueue {
  private Event[] heap = new Event[256];
  private int size;
  private long nextSeq;

  /** Number of scheduled events. */
  public int size() {
    return size;
  }

  /** Whether no event is scheduled. */
  public boolean isEmpty() {
    return size == 0;
  }

  /** Schedules {@code e} at {@code time}, moving it if it was already scheduled. */
  public void schedule(Event e, long time) {
    e.time = time;
    e.seq = nextSeq++;
    if (e.heapIndex >= 0) {
      int i = e.heapIndex;
      siftUp(i);
      siftDown(e.heapIndex);
      return;
    }
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    heap[size] = e;
    e.heapIndex = size;
    size++;
    siftUp(size - 1);
  }

  /** Removes {@code e} if scheduled. */
  public void cancel(Event e) {
    int i = e.heapIndex;
    if (i < 0) {
      return;
    }
    size--;
    Event last = heap[size];
    heap[size] = null;
    e.heapIndex = -1;
    if (i < size) {
      heap[i] = last;
      last.heapIndex = i;
      siftUp(i);
      siftDown(last.heapIndex);
    }
  }

  /** The earliest event, without removing it, or null. */
  public Event peek() {
    return size == 0 ? null : heap[0];
  }

  /** Removes and returns the earliest event, or null. */
  public Event poll() {
    if (size == 0) {
      return null;
    }
    Event top = heap[0];
    cancel(top);
    return top;
  }

  private static boolean less(Event a, Event b) {
    return a.time < b.time || (a.time == b.time && a.seq < b.seq);
  }

  private void siftUp(int i) {
    Event e = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Event p = heap[parent];
      if (!less(e, p)) {
        break;
      }
      heap[i] = p;
      p.heapIndex = i;
      i = parent;
    }
    heap[i] = e;
    e.heapIndex = i;
  }

  private void siftDown(int i) {
    Event e = heap[i];
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      Event c = heap[child];
      int right = child + 1;
      if (right < size && less(heap[right], c)) {
        child = right;
        c = heap[child];
      }
      if (!less(c, e)) {
        break;
      }
      heap[i] = c;
      c.heapIndex = i;
      i = child;
    }
    heap[i] = e;
    e.heapIndex = i;
  }
}
