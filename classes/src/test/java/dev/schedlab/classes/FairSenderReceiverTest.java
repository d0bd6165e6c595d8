package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * A hackbench sender (pid 1) and a receiver it wakes (pid 2) on one CPU of a 2-CPU machine, v6.18
 * (PROTECT_QUANTUM, RUN_TO_PARITY): the base slice is 0.75 ms × (1 + ilog2(2)) = 1.5 ms, and a
 * receiver back without lag does not preempt a sender inside it; the sender is rescheduled by its
 * own {@code update_curr()} once its protection ends.
 */
class FairSenderReceiverTest {
  private static final long US = 1_000L;
  private final FakeServices services = new FakeServices(2, 2);
  private final FakeTask sender = FakeTask.normal(1);
  private final FakeTask receiver = FakeTask.normal(2);

  @Test
  void aReceiverBackWithoutLagWaitsForTheEndOfTheSendersSlice() {
    services.params.put("feature.PROTECT_QUANTUM", 1L);
    FairClass fair = new FairClass();
    FakeEngine engine = new FakeEngine(fair, services);
    assertThat(fair.features().baseSliceNs()).isEqualTo(1_500 * US);
    fair.entity(sender).vlag = 0;
    engine.wake(0, sender, ENQUEUE_WAKEUP); // a whole slice: v 0, deadline 1.5 ms
    assertThat(engine.schedule(0, false)).isSameAs(sender);
    engine.run(0, 1_000 * US); // alone: V follows it, its deadline still ahead
    services.resched.clear();
    fair.entity(receiver).vlag = 0;
    engine.wake(0, receiver, ENQUEUE_WAKEUP); // placed at V = the sender's v, deadline 2.5 ms
    assertThat(fair.entity(sender).vprot).isEqualTo(1_500 * US);
    assertThat(services.resched).isEmpty();
    engine.run(0, 400 * US); // v 1.4 ms: still protected
    assertThat(services.resched).isEmpty();
    engine.run(0, 100 * US); // v 1.5 ms: the protection ends with the receiver queued
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.SLICE_EXPIRY_TICK));
  }
}
