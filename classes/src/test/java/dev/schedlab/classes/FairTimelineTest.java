package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class FairTimelineTest {
  /**
   * Deadline order; List.sort is stable, so equal deadlines keep the reference's (queueing) order.
   */
  private static final Comparator<FairEntity> DEADLINE_ORDER =
      Comparator.comparingLong(e -> e.deadline);

  private static FairEntity entity(SplittableRandom rng) {
    FairEntity e = new FairEntity(new FairRq(0, null));
    e.weight = 1 + rng.nextInt(3) * 1023;
    e.vruntime = rng.nextLong(1_000) - 500;
    e.deadline = rng.nextLong(60); // few deadlines, so many ties
    e.slice = 1_000L * (1 + rng.nextInt(3));
    return e;
  }

  /**
   * Random queueing and dequeueing: the in-order walk, the leftmost entity, the red-black
   * invariants, every subtree's minimums and the pick agree with a sorted plain list.
   */
  @Test
  void orderAugmentationAndPickMatchAReference() {
    SplittableRandom rng = new SplittableRandom(11);
    FairRq q = new FairRq(0, null);
    List<FairEntity> ref = new ArrayList<>();
    for (int op = 0; op < 6_000; op++) {
      if (ref.isEmpty() || rng.nextInt(100) < 52) {
        FairEntity e = entity(rng);
        q.add(e);
        ref.add(e);
      } else {
        q.remove(ref.remove(rng.nextInt(ref.size())));
      }
      ref.sort(DEADLINE_ORDER);
      List<FairEntity> walked = new ArrayList<>();
      for (FairEntity e = q.tree.first(); e != null; e = FairTimeline.next(e)) {
        walked.add(e);
      }
      assertThat(walked).as("op %d", op).containsExactlyElementsOf(ref);
      assertThat(q.tree.size()).isEqualTo(ref.size());
      long minSlice = ref.stream().mapToLong(e -> e.slice).min().orElse(Long.MAX_VALUE);
      assertThat(q.tree.minSlice()).isEqualTo(minSlice);
      FairEntity root = q.tree.root();
      if (root != null) {
        assertThat(root.rbRed).isFalse();
        assertThat(root.rbParent).isNull();
      }
      checkSubtree(root);
      // pick_eevdf(): the first entity in deadline order that is eligible.
      FairEntity expected = null;
      for (FairEntity e : ref) {
        if (q.eligible(e.vruntime)) {
          expected = e;
          break;
        }
      }
      if (ref.size() > 1 && expected != null) {
        assertThat(q.pickEevdf(false)).as("pick at op %d", op).isSameAs(expected);
      }
    }
  }

  /** Returns the black height; checks links, colours and the minimums of {@code n}'s subtree. */
  private static int checkSubtree(@Nullable FairEntity n) {
    if (n == null) {
      return 1;
    }
    long minV = n.vruntime;
    long minS = n.slice;
    for (FairEntity c : new FairEntity[] {n.rbLeft, n.rbRight}) {
      if (c != null) {
        assertThat(c.rbParent).isSameAs(n);
        assertThat(n.rbRed && c.rbRed).as("red node with a red child").isFalse();
        minV = Math.min(minV, c.minVruntime);
        minS = Math.min(minS, c.minSlice);
      }
    }
    assertThat(n.minVruntime).isEqualTo(minV);
    assertThat(n.minSlice).isEqualTo(minS);
    int left = checkSubtree(n.rbLeft);
    assertThat(checkSubtree(n.rbRight)).as("black height").isEqualTo(left);
    return left + (n.rbRed ? 0 : 1);
  }

  @Test
  void emptiedTreeHasNoFirstAndNoSlice() {
    FairRq q = new FairRq(0, null);
    FairEntity e = entity(new SplittableRandom(1));
    q.add(e);
    assertThat(q.tree.first()).isSameAs(e);
    assertThat(q.tree.minSlice()).isEqualTo(e.slice);
    q.remove(e);
    assertThat(q.tree.first()).isNull();
    assertThat(q.tree.root()).isNull();
    assertThat(q.tree.minSlice()).isEqualTo(Long.MAX_VALUE);
  }
}
