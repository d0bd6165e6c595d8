package dev.schedlab.classes;

import org.jspecify.annotations.Nullable;

/**
 * A fair runqueue's deadline-ordered queue ({@code cfs_rq->tasks_timeline}): a red-black tree whose
 * nodes are the entities themselves, ordered by deadline and augmented with each subtree's smallest
 * vruntime and smallest slice, with the leftmost entity cached.
 *
 * <p>Models: the kernel's intrusive augmented rb-tree ({@code struct sched_entity}'s {@code
 * run_node}, {@code min_vruntime} and {@code min_slice}; {@code rb_root_cached}). The links live in
 * each {@link FairEntity}, so queueing allocates nothing, whatever the number of entities a CPU's
 * runqueue ever holds: the storage is per entity, not per runqueue. Equal deadlines stay in
 * insertion order, as in the kernel: of two tasks woken together with the same lag onto an idle
 * CPU, the first enqueued runs first, whatever their pids.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code __enqueue_entity}, {@code
 * __dequeue_entity}, {@code __pick_first_entity}, {@code min_vruntime_update}, {@code
 * min_vruntime_cb_propagate}), {@code lib/rbtree.c}, {@code include/linux/rbtree_augmented.h}.
 */
final class FairTimeline {
  private @Nullable FairEntity root;

  /** The entity with the earliest deadline ({@code rb_leftmost}). */
  private @Nullable FairEntity leftmost;

  private int size;

  int size() {
    return size;
  }

  /** {@code __pick_first_entity()}: the earliest deadline, or null. */
  @Nullable FairEntity first() {
    return leftmost;
  }

  /** The root, where {@code pick_eevdf()}'s heap search starts. */
  @Nullable FairEntity root() {
    return root;
  }

  /** The smallest slice in the tree ({@code min_slice} at the root), or Long.MAX_VALUE. */
  long minSlice() {
    return root == null ? Long.MAX_VALUE : root.minSlice;
  }

  /** The entity after {@code e} in deadline order ({@code rb_next()}), or null. */
  static @Nullable FairEntity next(FairEntity e) {
    FairEntity n = e.rbRight;
    if (n != null) {
      while (n.rbLeft != null) {
        n = n.rbLeft;
      }
      return n;
    }
    FairEntity child = e;
    FairEntity p = e.rbParent;
    while (p != null && child == p.rbRight) {
      child = p;
      p = p.rbParent;
    }
    return p;
  }

  /**
   * {@code entity_before()}: strictly earlier deadline. An equal deadline is not before, so {@link
   * #insert} puts a new entity right of its equals ({@code rb_add_cached()}).
   */
  private static boolean before(FairEntity a, FairEntity b) {
    return a.deadline - b.deadline < 0; // signed, like the kernel's (s64)(a - b) < 0
  }

  /** {@code __enqueue_entity()}: links {@code se}, whose keys must not change while queued. */
  void insert(FairEntity se) {
    FairEntity parent = null;
    boolean leftmostSoFar = true;
    for (FairEntity n = root; n != null; ) {
      parent = n;
      if (before(se, n)) {
        n = n.rbLeft;
      } else {
        n = n.rbRight;
        leftmostSoFar = false;
      }
    }
    se.rbParent = parent;
    se.rbLeft = null;
    se.rbRight = null;
    se.rbRed = true;
    se.minVruntime = se.vruntime;
    se.minSlice = se.slice;
    if (parent == null) {
      root = se;
    } else if (before(se, parent)) {
      parent.rbLeft = se;
    } else {
      parent.rbRight = se;
    }
    if (leftmostSoFar) {
      leftmost = se;
    }
    size++;
    propagate(parent, null);
    insertFixup(se);
  }

  /** {@code __dequeue_entity()}: unlinks {@code z}, which must be in this tree. */
  void remove(FairEntity z) {
    if (z == leftmost) {
      leftmost = next(z);
    }
    FairEntity x;
    FairEntity xParent;
    boolean removedRed;
    if (z.rbLeft == null || z.rbRight == null) {
      x = z.rbLeft != null ? z.rbLeft : z.rbRight;
      xParent = z.rbParent;
      removedRed = z.rbRed;
      transplant(z, x);
      propagate(xParent, null);
    } else {
      // Two children: the successor y takes z's place, colour and minimums (augment->copy), then
      // the minimums are recomputed from y's old parent up to y and from y up.
      FairEntity y = z.rbRight;
      while (y.rbLeft != null) {
        y = y.rbLeft;
      }
      removedRed = y.rbRed;
      x = y.rbRight;
      if (y.rbParent == z) {
        xParent = y;
      } else {
        xParent = y.rbParent;
        transplant(y, x);
        y.rbRight = z.rbRight;
        y.rbRight.rbParent = y;
      }
      transplant(z, y);
      y.rbLeft = z.rbLeft;
      y.rbLeft.rbParent = y;
      y.rbRed = z.rbRed;
      y.minVruntime = z.minVruntime;
      y.minSlice = z.minSlice;
      propagate(xParent, y);
      propagate(y, null);
    }
    z.rbParent = null;
    z.rbLeft = null;
    z.rbRight = null;
    size--;
    if (!removedRed) {
      removeFixup(x, xParent);
    }
  }

  private void transplant(FairEntity u, @Nullable FairEntity v) {
    FairEntity p = u.rbParent;
    if (p == null) {
      root = v;
    } else if (u == p.rbLeft) {
      p.rbLeft = v;
    } else {
      p.rbRight = v;
    }
    if (v != null) {
      v.rbParent = p;
    }
  }

  /**
   * {@code min_vruntime_cb_propagate()}: recomputes the augmentation from {@code n} up to (not
   * including) {@code stop}, ending early at a node whose minimums did not change, as its
   * ancestors' then do not change either.
   */
  private static void propagate(@Nullable FairEntity n, @Nullable FairEntity stop) {
    for (; n != null && n != stop; n = n.rbParent) {
      if (!update(n)) {
        return;
      }
    }
  }

  /**
   * {@code min_vruntime_update()}: a node's minimums from its own keys and its children's; returns
   * whether they changed.
   */
  private static boolean update(FairEntity n) {
    long minV = n.vruntime;
    long minS = n.slice;
    FairEntity c = n.rbLeft;
    if (c != null) {
      minV = c.minVruntime - minV < 0 ? c.minVruntime : minV;
      minS = Math.min(minS, c.minSlice);
    }
    c = n.rbRight;
    if (c != null) {
      minV = c.minVruntime - minV < 0 ? c.minVruntime : minV;
      minS = Math.min(minS, c.minSlice);
    }
    if (n.minVruntime == minV && n.minSlice == minS) {
      return false;
    }
    n.minVruntime = minV;
    n.minSlice = minS;
    return true;
  }

  private static boolean isRed(@Nullable FairEntity n) {
    return n != null && n.rbRed;
  }

  /** A rotation keeps the subtree's set, so only the two rotated nodes' minimums change. */
  private void rotateLeft(FairEntity x) {
    FairEntity y = x.rbRight;
    if (y == null) {
      throw new IllegalStateException("rotateLeft without a right child");
    }
    x.rbRight = y.rbLeft;
    if (y.rbLeft != null) {
      y.rbLeft.rbParent = x;
    }
    transplant(x, y);
    y.rbLeft = x;
    x.rbParent = y;
    update(x);
    update(y);
  }

  private void rotateRight(FairEntity x) {
    FairEntity y = x.rbLeft;
    if (y == null) {
      throw new IllegalStateException("rotateRight without a left child");
    }
    x.rbLeft = y.rbRight;
    if (y.rbRight != null) {
      y.rbRight.rbParent = x;
    }
    transplant(x, y);
    y.rbRight = x;
    x.rbParent = y;
    update(x);
    update(y);
  }

  private void insertFixup(FairEntity z) {
    while (true) {
      FairEntity p = z.rbParent;
      FairEntity g = p == null ? null : p.rbParent;
      if (p == null || !p.rbRed || g == null) {
        break; // a red root is coloured black below
      }
      boolean leftSide = p == g.rbLeft;
      FairEntity uncle = leftSide ? g.rbRight : g.rbLeft;
      if (uncle != null && uncle.rbRed) {
        p.rbRed = false;
        uncle.rbRed = false;
        g.rbRed = true;
        z = g;
        continue;
      }
      if (leftSide && z == p.rbRight) {
        rotateLeft(p);
        p = z;
      } else if (!leftSide && z == p.rbLeft) {
        rotateRight(p);
        p = z;
      }
      p.rbRed = false;
      g.rbRed = true;
      if (leftSide) {
        rotateRight(g);
      } else {
        rotateLeft(g);
      }
      break;
    }
    if (root != null) {
      root.rbRed = false;
    }
  }

  /** Restores the black height after a black node left above {@code x} (null counts as black). */
  private void removeFixup(@Nullable FairEntity x, @Nullable FairEntity xParent) {
    while (x != root && !isRed(x) && xParent != null) {
      if (x == xParent.rbLeft) {
        FairEntity w = sibling(xParent.rbRight);
        if (w.rbRed) {
          w.rbRed = false;
          xParent.rbRed = true;
          rotateLeft(xParent);
          w = sibling(xParent.rbRight);
        }
        if (!isRed(w.rbLeft) && !isRed(w.rbRight)) {
          w.rbRed = true;
          x = xParent;
          xParent = x.rbParent;
          continue;
        }
        if (!isRed(w.rbRight)) {
          sibling(w.rbLeft).rbRed = false;
          w.rbRed = true;
          rotateRight(w);
          w = sibling(xParent.rbRight);
        }
        w.rbRed = xParent.rbRed;
        xParent.rbRed = false;
        sibling(w.rbRight).rbRed = false;
        rotateLeft(xParent);
      } else {
        FairEntity w = sibling(xParent.rbLeft);
        if (w.rbRed) {
          w.rbRed = false;
          xParent.rbRed = true;
          rotateRight(xParent);
          w = sibling(xParent.rbLeft);
        }
        if (!isRed(w.rbLeft) && !isRed(w.rbRight)) {
          w.rbRed = true;
          x = xParent;
          xParent = x.rbParent;
          continue;
        }
        if (!isRed(w.rbLeft)) {
          sibling(w.rbRight).rbRed = false;
          w.rbRed = true;
          rotateLeft(w);
          w = sibling(xParent.rbLeft);
        }
        w.rbRed = xParent.rbRed;
        xParent.rbRed = false;
        sibling(w.rbLeft).rbRed = false;
        rotateRight(xParent);
      }
      x = root;
      break;
    }
    if (x != null) {
      x.rbRed = false;
    }
  }

  /** A node the red-black invariants guarantee to exist. */
  private static FairEntity sibling(@Nullable FairEntity n) {
    if (n == null) {
      throw new IllegalStateException("fair timeline: red-black invariant broken");
    }
    return n;
  }
}
