package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DeadlineArrayTest {
  private record Item(long sortKey, int pid, long sliceKey) implements DeadlineArray.Node {}

  /** Random inserts and removes: order and the kept smallest slice agree with a plain list. */
  @Test
  void orderAndMinSliceMatchAReference() {
    SplittableRandom rng = new SplittableRandom(5);
    DeadlineArray<Item> a = new DeadlineArray<>();
    List<Item> ref = new ArrayList<>();
    int pid = 0;
    for (int op = 0; op < 4_000; op++) {
      if (ref.isEmpty() || rng.nextInt(100) < 55) {
        // few distinct slices, so ties at the minimum and its last holder leaving both happen
        Item it = new Item(rng.nextLong(50), pid++, 1_000L * (1 + rng.nextInt(3)));
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
                  : x.pid() - y.pid());
      long min = ref.stream().mapToLong(Item::sliceKey).min().orElse(Long.MAX_VALUE);
      assertThat(a.minSlice()).as("op %d", op).isEqualTo(min);
      assertThat(a.size()).isEqualTo(ref.size());
      for (int i = 0; i < ref.size(); i++) {
        assertThat(a.get(i)).isSameAs(ref.get(i));
      }
    }
  }

  @Test
  void emptyArrayHasNoSlice() {
    DeadlineArray<Item> a = new DeadlineArray<>();
    Item it = new Item(1, 1, 7);
    a.insert(it);
    assertThat(a.minSlice()).isEqualTo(7);
    a.remove(it);
    assertThat(a.minSlice()).isEqualTo(Long.MAX_VALUE);
    assertThat(a.first()).isNull();
  }
}
