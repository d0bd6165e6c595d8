package dev.schedlab.classes;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A sorted array of entities ordered by (key, pid), used as the EDF "tree" of the deadline class.
 * The keys and pids are kept in one array beside the entities, so the search reads no entity (each
 * would be a cache miss on a large machine). Nothing is allocated per operation except when the
 * arrays grow (the fair class's queue, {@link FairTimeline}, keeps its nodes in the entities).
 *
 * <p>Models: the kernel's rb-trees keyed by deadline, with the pid as a deterministic tie-break.
 *
 * <p>Does not model: O(log n) insertion (insert/remove are O(log n) search plus an O(n) array
 * shift), which is fine for the few tasks per runqueue a simulation has.
 *
 * <p>Kernel reference: {@code __enqueue_dl_entity()}, {@code __enqueue_entity()}.
 *
 * @param <E> entity type
 */
final class DeadlineArray<E extends DeadlineArray.Node> {
  /** An element: its sort key must not change while it is in the array. */
  interface Node {
    /** Primary order, ascending (an absolute or virtual deadline). */
    long sortKey();

    /** Tie-break, ascending. */
    int pid();
  }

  /** Longs per element in {@link #nodes}: sort key, pid. */
  private static final int STRIDE = 2;

  private static final int KEY = 0;
  private static final int PID = 1;

  private Node[] items = new Node[8];

  /**
   * What the search reads of {@code items[i]}, as of its insertion, side by side at {@code STRIDE *
   * i}: one array for a runqueue's few entities, a few cache lines.
   */
  private long[] nodes = new long[8 * STRIDE];

  private int size;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  E get(int i) {
    return (E) items[i];
  }

  /** The first element, or null. */
  @Nullable E first() {
    return size == 0 ? null : get(0);
  }

  void insert(E e) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
      nodes = Arrays.copyOf(nodes, size * 2 * STRIDE);
    }
    long key = e.sortKey();
    int pid = e.pid();
    int at = insertionPoint(key, pid);
    System.arraycopy(items, at, items, at + 1, size - at);
    System.arraycopy(nodes, STRIDE * at, nodes, STRIDE * (at + 1), STRIDE * (size - at));
    items[at] = e;
    int n = STRIDE * at;
    nodes[n + KEY] = key;
    nodes[n + PID] = pid;
    size++;
  }

  /** Removes {@code e}; returns false when it is not in the array. */
  boolean remove(E e) {
    long key = e.sortKey();
    int at = insertionPoint(key, e.pid());
    // insertionPoint returns the first slot not before e; e itself sits there if present.
    for (int i = at; i < size && nodes[STRIDE * i + KEY] == key; i++) {
      if (items[i] == e) {
        int tail = size - i - 1;
        System.arraycopy(items, i + 1, items, i, tail);
        System.arraycopy(nodes, STRIDE * (i + 1), nodes, STRIDE * i, STRIDE * tail);
        items[--size] = null;
        return true;
      }
    }
    return false;
  }

  private int insertionPoint(long key, int pid) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long d = nodes[STRIDE * mid + KEY] - key; // signed, like the kernel's (s64)(a - b) < 0
      if (d < 0 || (d == 0 && nodes[STRIDE * mid + PID] < pid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
