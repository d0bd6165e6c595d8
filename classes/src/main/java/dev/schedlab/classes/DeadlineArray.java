package dev.schedlab.classes;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A sorted array of entities ordered by key, used as the EDF "tree" of the deadline class. The keys
 * are kept in one array beside the entities, so the search reads no entity (each would be a cache
 * miss on a large machine). Nothing is allocated per operation except when the arrays grow (the
 * fair class's queue, {@link FairTimeline}, keeps its nodes in the entities).
 *
 * <p>Models: the kernel's rb-tree keyed by deadline ({@code __dl_less()}: strictly earlier), into
 * which {@code rb_add_cached()} puts a new entity right of its equals: equal deadlines stay in
 * insertion order, whatever the pids.
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
    /** The order, ascending (an absolute deadline); equal keys keep their insertion order. */
    long sortKey();
  }

  private Node[] items = new Node[8];

  /**
   * What the search reads of {@code items[i]}, its key as of its insertion: one array for a
   * runqueue's few entities, a few cache lines.
   */
  private long[] keys = new long[8];

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
      keys = Arrays.copyOf(keys, size * 2);
    }
    long key = e.sortKey();
    int at = firstAfter(key, true);
    System.arraycopy(items, at, items, at + 1, size - at);
    System.arraycopy(keys, at, keys, at + 1, size - at);
    items[at] = e;
    keys[at] = key;
    size++;
  }

  /** Removes {@code e}; returns false when it is not in the array. */
  boolean remove(E e) {
    long key = e.sortKey();
    for (int i = firstAfter(key, false); i < size && keys[i] == key; i++) {
      if (items[i] == e) {
        int tail = size - i - 1;
        System.arraycopy(items, i + 1, items, i, tail);
        System.arraycopy(keys, i + 1, keys, i, tail);
        items[--size] = null;
        return true;
      }
    }
    return false;
  }

  /**
   * The first slot whose key is after {@code key}, or (with {@code orEqual} false) not before it: a
   * new element goes after its equals, a removal searches from the first of them.
   */
  private int firstAfter(long key, boolean orEqual) {
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      long d = keys[mid] - key; // signed, like the kernel's (s64)(a - b) < 0
      if (d < 0 || (orEqual && d == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
