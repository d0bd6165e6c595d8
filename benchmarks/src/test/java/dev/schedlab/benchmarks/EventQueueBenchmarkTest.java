package dev.schedlab.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The two queues of {@link EventQueueBenchmark} do the same work: same events, same order. */
class EventQueueBenchmarkTest {
  @Test
  void engineAndNaiveQueuesPopTheSameSequence() {
    EventQueueBenchmark.EngineQueue engine = new EventQueueBenchmark.EngineQueue();
    EventQueueBenchmark.NaiveQueue naive = new EventQueueBenchmark.NaiveQueue();
    engine.init(1024);
    naive.init(1024);
    for (int i = 0; i < 100_000; i++) {
      assertThat(engine.step()).isEqualTo(naive.step());
      assertThat(engine.now).isEqualTo(naive.now);
    }
    assertThat(engine.queue.size()).isEqualTo(1024);
    assertThat(naive.queue).hasSize(1024);
  }

  @Test
  void delaysAreSeededAndInRange() {
    long[] a = EventQueueBenchmark.delays(EventQueueBenchmark.SEED);
    assertThat(a).isEqualTo(EventQueueBenchmark.delays(EventQueueBenchmark.SEED));
    assertThat(a).hasSize(EventQueueBenchmark.DELAYS);
    assertThat(Arrays.stream(a)).allMatch(d -> d >= 1 && d <= EventQueueBenchmark.MAX_DELAY_NS);
  }
}
