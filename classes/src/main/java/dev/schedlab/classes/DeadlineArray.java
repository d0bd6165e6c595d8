package dev.schedlab.classes;

import java.util.Arrays;

/**
 * A sorted array of entities ordered by (key, pid), used as the EDF "tree" of the deadline class
 * and the deadline-ordered queue of the fair class.
 *
 * <p>Models: the kernel's rb-trees keyed by deadline, with the pid as a deterministic tie-break.
 * Does not model: O(log n) insertion (insert/remove are O(log n) search plus an O(n) array shift),
 * which is fine for the few tasks per runqueue a simulation has. Nothing is allocated per
 * operation except when the array grows. Kernel reference: {@code __enqueue_dl_entity()},
 * {@code __enqueue_entity()}.
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
  E first() {
    return size == 0 ? null : get(0);
  }

  void insert(E e) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    int at = insertionPoint(e.sortKey(), e.pid());
    System.arraycopy(items, at, items, at + 1, size - at);
    items[at] = e;
    size++;
  }

  /** Removes {@code e}; returns false when it is not in the array. */
  boolean remove(E e) {
    int at = insertionPoint(e.sortKey(), e.pid());
    // insertionPoint returns the first slot not before e; e itself sits there if present.
    for (int i = at; i < size && items[i].sortKey() == e.sortKey(); i++) {
      if (items[i] == e) {
        System.arraycopy(items, i + 1, items, i, size - i - 1);
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
      if (before(items[mid], key, pid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static boolean before(Node n, long key, int pid) {
    long d = n.sortKey() - key; // signed difference, like the kernel's (s64)(a - b) < 0
    return d < 0 || (d == 0 && n.pid() < pid);
  }
}
