package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * v6.18's {@code check_preempt_wakeup_fair()} (feature PROTECT_QUANTUM) on one CPU, base slice 0.75
 * ms, equal slices: a wakee preempts only when {@code pick_eevdf()}, with curr's protection, picks
 * it. A waker (pid 1) and its wakee (pid 2), as a JVM thread and its JIT compiler thread, with a
 * third thread (pid 3) of the same runqueue in the last two cases.
 */
class FairWakeupPreemptTest {
  private static final long US = 1_000L;
  private final FakeServices services = new FakeServices(1, 1);
  private FairClass fair;
  private FakeEngine engine;
  private final FakeTask waker = FakeTask.normal(1);
  private final FakeTask wakee = FakeTask.normal(2);
  private final FakeTask third = FakeTask.normal(3);

  private void start() {
    services.params.put("feature.PROTECT_QUANTUM", 1L);
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
  }

  private FairEntity se(FakeTask t) {
    return fair.entity(t);
  }

  /**
   * Both start at v 0 (deadline 0.375 ms); the waker runs 300 µs, the wakee 10 µs and sleeps with
   * the lag it is owed, V 155 µs - v 10 µs; the waker is picked again, protected to its deadline.
   */
  private void wakeeSleepsOwed() {
    start();
    engine.enqueue(0, waker, ENQUEUE_INITIAL);
    engine.enqueue(0, wakee, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(waker);
    engine.run(0, 300 * US);
    assertThat(engine.schedule(0, false)).isSameAs(wakee);
    engine.run(0, 10 * US);
    assertThat(engine.schedule(0, true)).isSameAs(waker);
    assertThat(se(wakee).vlag).isEqualTo(145 * US);
    assertThat(se(waker).vprot).isEqualTo(375 * US);
    engine.run(0, 3 * US);
    services.resched.clear();
  }

  @Test
  void aWakeeBackWithItsLagPreemptsAProtectedWakerThatRan3Us() {
    wakeeSleepsOwed();
    engine.wake(0, wakee, ENQUEUE_WAKEUP); // placed 290 µs left of V: V moves 145 µs left
    assertThat(se(waker).isProtected()).isTrue();
    assertThat(fair.rq(0).eligible(se(waker).vruntime)).isFalse();
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
  }

  @Test
  void aWakeeBackWithoutLagLeavesTheProtectedWakerRunning() {
    wakeeSleepsOwed();
    se(wakee).vlag = 0; // as DELAY_ZERO leaves a delayed entity that earned lag
    engine.wake(0, wakee, ENQUEUE_WAKEUP); // placed at V, on the waker's vruntime
    assertThat(fair.rq(0).eligible(se(waker).vruntime)).isTrue();
    assertThat(services.resched).isEmpty();
  }

  @Test
  void aQueuedThreadWithAnEarlierDeadlineIsThePickSoTheWakeeWaits() {
    start();
    engine.enqueue(0, waker, ENQUEUE_INITIAL);
    engine.enqueue(0, third, ENQUEUE_INITIAL); // v 0, deadline 375 µs
    assertThat(engine.schedule(0, false)).isSameAs(waker);
    engine.run(0, 200 * US); // V 100 µs: the waker is past it
    services.resched.clear();
    se(wakee).vlag = 150 * US;
    engine.wake(0, wakee, ENQUEUE_WAKEUP); // v -125 µs, deadline 625 µs
    assertThat(fair.rq(0).eligible(se(waker).vruntime)).isFalse();
    assertThat(fair.rq(0).eligible(se(wakee).vruntime)).isTrue();
    assertThat(fair.rq(0).pickEevdf(true)).isSameAs(se(third));
    assertThat(services.resched).isEmpty();
  }

  @Test
  void aQueuedThreadPastTheAverageKeepsTheProtectedWakerEligible() {
    start();
    engine.enqueue(0, waker, ENQUEUE_INITIAL);
    engine.enqueue(0, third, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(waker);
    engine.run(0, US);
    assertThat(engine.schedule(0, false)).isSameAs(third);
    engine.run(0, 2_000 * US);
    assertThat(engine.schedule(0, false)).isSameAs(waker); // v 1 µs, protected to 375 µs
    services.resched.clear();
    se(wakee).vlag = 1_000 * US;
    engine.wake(0, wakee, ENQUEUE_WAKEUP); // v -499.5 µs, deadline 250.5 µs: the earliest
    assertThat(se(wakee).deadline).isLessThan(se(waker).deadline);
    assertThat(fair.rq(0).eligible(se(wakee).vruntime)).isTrue();
    assertThat(fair.rq(0).eligible(se(waker).vruntime)).isTrue(); // V 500.5 µs, held up by pid 3
    assertThat(se(waker).isProtected()).isTrue();
    assertThat(services.resched).isEmpty();
  }
}
