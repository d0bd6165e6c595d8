package dev.schedlab.engine.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void equalTimesFireInSchedulingOrder() {
    EventQueue q = new EventQueue();
    Event a = new Event(1, 0, null);
    Event b = new Event(2, 0, null);
    Event c = new Event(3, 0, null);
    q.schedule(b, 10);
    q.schedule(a, 5);
    q.schedule(c, 10);
    assertThat(q.poll()).isSameAs(a);
    assertThat(q.poll()).isSameAs(b);
    assertThat(q.poll()).isSameAs(c);
    assertThat(q.poll()).isNull();
  }

  @Test
  void rescheduleMovesAndCancelRemoves() {
    EventQueue q = new EventQueue();
    Event a = new Event(1, 0, null);
    Event b = new Event(2, 0, null);
    q.schedule(a, 5);
    q.schedule(b, 7);
    q.schedule(a, 9);
    assertThat(q.peek()).isSameAs(b);
    q.cancel(b);
    assertThat(b.scheduled()).isFalse();
    assertThat(q.poll()).isSameAs(a);
    assertThat(q.isEmpty()).isTrue();
  }

  @Test
  void refusesToScheduleInThePast() {
    EventQueue q = new EventQueue();
    Event a = new Event(1, 0, null);
    q.schedule(a, 100);
    q.poll();
    assertThatThrownBy(() -> q.schedule(a, 99)).isInstanceOf(IllegalArgumentException.class);
  }

  /** Random schedules, reschedules and cancels agree with a (time, scheduling order) reference. */
  @Test
  void matchesAReferenceUnderRandomOperations() {
    SplittableRandom rng = new SplittableRandom(3);
    EventQueue q = new EventQueue();
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      events.add(new Event(0, i, null));
    }
    Map<Event, Long> order = new IdentityHashMap<>();
    TreeSet<Event> ref =
        new TreeSet<>(Comparator.comparingLong(Event::time).thenComparingLong(order::get));
    long now = 0;
    long seq = 0;
    for (int step = 0; step < 300_000; step++) {
      int op = rng.nextInt(10);
      if (op < 5) {
        Event e = events.get(rng.nextInt(events.size()));
        ref.remove(e);
        // Coarse times make ties common; a few far-future events stretch the buckets.
        long delay = rng.nextInt(20) == 0 ? rng.nextLong(1L << 40) : rng.nextLong(50) * 10;
        q.schedule(e, now + delay);
        order.put(e, seq++);
        ref.add(e);
      } else if (op < 6) {
        Event e = events.get(rng.nextInt(events.size()));
        ref.remove(e);
        q.cancel(e);
      } else if (!ref.isEmpty()) {
        Event expected = ref.pollFirst();
        Event got = q.poll();
        assertThat(got).isSameAs(expected);
        now = got.time();
      }
      assertThat(q.size()).isEqualTo(ref.size());
    }
  }
}
