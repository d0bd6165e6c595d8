package dev.schedlab.classes;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A sorted array of entities ordered by (key, pid), used as the EDF "tree" of the deadline class
 * and the deadline-ordered queue of the fair class. The keys and pids are kept in one array beside
 * the entities, so the search reads no entity (each would be a cache miss on a large machine); so
 * are the two values the fair class's scans read (vruntime for eligibility, the slice for the
 * smallest slice), as the kernel keeps them in the tree's augmented nodes. Nothing is allocated per
 * operation except when the arrays grow.
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

    /** The vruntime the fair class's eligibility scan reads (0 when unused). */
    default long vruntimeKey() {
      return 0;
    }

    /** The slice {@link #minSlice()} reads (0 when unused). */
    default long sliceKey() {
      return 0;
    }
  }

  /** Longs per element in {@link #nodes}: sort key, pid, vruntime, slice. */
  private static final int STRIDE = 4;

  private static final int KEY = 0;
  private static final int PID = 1;
  private static final int VRUNTIME = 2;
  private static final int SLICE = 3;

  private Node[] items = new Node[8];

  /**
   * What the searches and scans read of {@code items[i]}, as of its insertion, side by side at
   * {@code STRIDE * i}: one array for a runqueue's few entities, a few cache lines.
   */
  private long[] nodes = new long[8 * STRIDE];

  private int size;

  /**
   * The smallest slice of the elements and how many have it, kept at insert and remove as the
   * kernel's augmented tree keeps {@code min_slice} at its root, so a pick reads no element; a scan
   * only when the last element with the smallest slice leaves.
   */
  private long minSlice = Long.MAX_VALUE;

  private int nrMinSlice;

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

  /** {@link Node#vruntimeKey()} of element {@code i}. */
  long vruntimeAt(int i) {
    return nodes[STRIDE * i + VRUNTIME];
  }

  /** The smallest {@link Node#sliceKey()}, or {@link Long#MAX_VALUE} when empty. */
  long minSlice() {
    return minSlice;
  }

  private void countSlice(long slice) {
    if (slice < minSlice) {
      minSlice = slice;
      nrMinSlice = 1;
    } else if (slice == minSlice) {
      nrMinSlice++;
    }
  }

  private void uncountSlice(long slice) {
    if (slice != minSlice || --nrMinSlice > 0) {
      return;
    }
    minSlice = Long.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      countSlice(nodes[STRIDE * i + SLICE]);
    }
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
    nodes[n + VRUNTIME] = e.vruntimeKey();
    long slice = e.sliceKey();
    nodes[n + SLICE] = slice;
    size++;
    countSlice(slice);
  }

  /** Removes {@code e}; returns false when it is not in the array. */
  boolean remove(E e) {
    long key = e.sortKey();
    int at = insertionPoint(key, e.pid());
    // insertionPoint returns the first slot not before e; e itself sits there if present.
    for (int i = at; i < size && nodes[STRIDE * i + KEY] == key; i++) {
      if (items[i] == e) {
        long slice = nodes[STRIDE * i + SLICE];
        int tail = size - i - 1;
        System.arraycopy(items, i + 1, items, i, tail);
        System.arraycopy(nodes, STRIDE * (i + 1), nodes, STRIDE * i, STRIDE * tail);
        items[--size] = null;
        uncountSlice(slice);
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
