package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeadlineArrayTest {
  /** An element inserted {@code seq}-th, its pid falling as seq rises. */
  private record Item(long sortKey, int pid, int seq) implements DeadlineArray.Node {}

  /**
   * Random inserts and removes: the order agrees with a plain list sorted by key, equal keys in
   * insertion order (the kernel's rb_add_cached() puts a new node right of its equals), not pid
   * order.
   */
  @Test
  void orderMatchesAReference() {
    SplittableRandom rng = new SplittableRandom(5);
    DeadlineArray<Item> a = new DeadlineArray<>();
    List<Item> ref = new ArrayList<>();
    int seq = 0;
    for (int op = 0; op < 4_000; op++) {
      if (ref.isEmpty() || rng.nextInt(100) < 55) {
        Item it = new Item(rng.nextLong(50), 100_000 - seq, seq++); // few keys: many ties
        a.insert(it);
        ref.add(it);
      } else {
        Item it = ref.remove(rng.nextInt(ref.size()));
        assertThat(a.remove(it)).isTrue();
        assertThat(a.remove(it)).isFalse();
      }
      ref.sort(
          (x, y) ->
              x.sortKey() != y.sortKey()
                  ? Long.compare(x.sortKey(), y.sortKey())
                  : x.seq() - y.seq());
      assertThat(a.size()).isEqualTo(ref.size());
      for (int i = 0; i < ref.size(); i++) {
        assertThat(a.get(i)).as("op %d", op).isSameAs(ref.get(i));
      }
    }
  }

  @Test
  void emptiedArrayHasNoFirst() {
    DeadlineArray<Item> a = new DeadlineArray<>();
    Item it = new Item(1, 1, 0);
    a.insert(it);
    assertThat(a.first()).isSameAs(it);
    a.remove(it);
    assertThat(a.first()).isNull();
  }
}
