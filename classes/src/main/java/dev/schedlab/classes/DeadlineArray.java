package dev.schedlab.classes;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A sorted array of entities ordered by (key, pid), used as the EDF "tree" of the deadline class
 * and the deadline-ordered queue of the fair class. The keys and pids are kept in arrays beside the
 * entities, so the search reads no entity (each would be a cache miss on a large machine). Nothing
 * is allocated per operation except when the arrays grow.
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

  private Node[] items = new Node[8];

  /** {@code items[i].sortKey()} and {@code items[i].pid()} as of insertion. */
  private long[] keys = new long[8];

  private int[] pids = new int[8];
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
      pids = Arrays.copyOf(pids, size * 2);
    }
    long key = e.sortKey();
    int pid = e.pid();
    int at = insertionPoint(key, pid);
    System.arraycopy(items, at, items, at + 1, size - at);
    System.arraycopy(keys, at, keys, at + 1, size - at);
    System.arraycopy(pids, at, pids, at + 1, size - at);
    items[at] = e;
    keys[at] = key;
    pids[at] = pid;
    size++;
  }

  /** Removes {@code e}; returns false when it is not in the array. */
  boolean remove(E e) {
    long key = e.sortKey();
    int at = insertionPoint(key, e.pid());
    // insertionPoint returns the first slot not before e; e itself sits there if present.
    for (int i = at; i < size && keys[i] == key; i++) {
      if (items[i] == e) {
        int tail = size - i - 1;
        System.arraycopy(items, i + 1, items, i, tail);
        System.arraycopy(keys, i + 1, keys, i, tail);
        System.arraycopy(pids, i + 1, pids, i, tail);
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
      long d = keys[mid] - key; // signed difference, like the kernel's (s64)(a - b) < 0
      if (d < 0 || (d == 0 && pids[mid] < pid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
