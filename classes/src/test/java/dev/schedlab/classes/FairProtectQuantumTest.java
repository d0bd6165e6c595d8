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
 * v6.17+'s slice protection (feature PROTECT_QUANTUM) against v6.12's (off), on one CPU with a base
 * slice of 0.75 ms unless said otherwise.
 */
class FairProtectQuantumTest {
  private static final long MS = 1_000_000L;
  private FakeServices services;
  private FairClass fair;
  private FakeEngine engine;

  private void start(int cpus, boolean quantum) {
    services = new FakeServices(cpus, cpus);
    services.params.put("feature.PROTECT_QUANTUM", quantum ? 1L : 0L);
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
  }

  private FairEntity se(FakeTask t) {
    return fair.entity(t);
  }

  /**
   * A (3 ms slice) and B (0.75 ms) start together; B runs 1 ms, then A is picked, eligible, its
   * protection min(deadline 1.5 ms, v 0 + min queued slice 0.75 ms) = 0.75 ms.
   */
  private FakeTask longSliceCurrAfterShortOne() {
    FakeTask a = FakeTask.normal(1);
    a.customSlice = 3 * MS;
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, a, ENQUEUE_INITIAL); // v 0, deadline 1.5 ms
    engine.enqueue(0, b, ENQUEUE_INITIAL); // v 0, deadline 0.375 ms
    assertThat(engine.schedule(0, false)).isSameAs(b);
    engine.run(0, MS); // B: v 1 ms
    assertThat(engine.schedule(0, false)).isSameAs(a); // V 0.5 ms: only A is eligible
    assertThat(se(a).vprot).isEqualTo(750_000);
    services.resched.clear();
    return a;
  }

  @Test
  void updateCurrReschedulesWhenTheProtectionEnds() {
    start(1, true);
    FakeTask a = longSliceCurrAfterShortOne();
    engine.run(0, 700_000);
    assertThat(services.resched).isEmpty(); // v 0.7 ms: still protected
    engine.run(0, 100_000); // v 0.8 ms, past 0.75 ms; still eligible (V 0.9 ms), deadline 1.5 ms
    assertThat(fair.rq(0).eligible(se(a).vruntime)).isTrue();
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.SLICE_EXPIRY_TICK));
  }

  @Test
  void withoutTheFeatureAnEligibleCurrRunsOnToItsDeadline() {
    start(1, false);
    FakeTask a = longSliceCurrAfterShortOne();
    engine.run(0, 800_000);
    engine.run(0, 100_000); // v 0.9 ms: protection over, but eligible (V 0.95 ms)
    assertThat(se(a).isProtected()).isFalse();
    assertThat(services.resched).isEmpty();
  }

  @Test
  void withoutRunToParityTheQuantumIsTheNormalizedBaseSlice() {
    start(2, true); // base slice 0.75 ms x (1 + ilog2(2)) = 1.5 ms, normalized 0.75 ms
    services.params.put("feature.RUN_TO_PARITY", 0L);
    fair.init(services.machine, services);
    FakeTask a = FakeTask.normal(1);
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, a, ENQUEUE_WAKEUP); // a full slice: deadline v + 1.5 ms
    engine.enqueue(0, b, ENQUEUE_WAKEUP);
    FakeTask first = (FakeTask) engine.schedule(0, false);
    FairEntity e = se(first);
    assertThat(e.slice).isEqualTo(1_500_000);
    assertThat(e.deadline).isEqualTo(e.vruntime + 1_500_000);
    assertThat(e.vprot).isEqualTo(e.vruntime + 750_000);
    services.resched.clear();
    engine.run(0, 750_000);
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.SLICE_EXPIRY_TICK));
  }

  /**
   * A ran 10 ms alone; C starts (v 10 ms, deadline 10.375 ms) and is protected to its deadline; B
   * wakes with a 0.1 ms slice and 0.5 ms of negative lag: not eligible, so not the pick.
   */
  private FakeTask ineligibleShortWakee() {
    FakeTask a = FakeTask.normal(1);
    FakeTask c = FakeTask.normal(3);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 10 * MS);
    engine.enqueue(0, c, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(c);
    assertThat(se(c).vprot).isEqualTo(10_375_000);
    services.resched.clear();
    FakeTask b = FakeTask.normal(2);
    b.customSlice = 100_000;
    se(b).vlag = -500_000;
    engine.wake(0, b, ENQUEUE_WAKEUP);
    assertThat(fair.rq(0).eligible(se(b).vruntime)).isFalse();
    return c;
  }

  @Test
  void aShorterSliceWakeeThatIsNotPickedCutsTheProtection() {
    start(1, true);
    FakeTask c = ineligibleShortWakee();
    assertThat(services.resched).isEmpty();
    assertThat(se(c).vprot).isEqualTo(10_100_000); // update_protect_slice(): v + 0.1 ms
  }

  @Test
  void withoutTheFeatureAnIneligibleShortWakeeLeavesTheProtection() {
    start(1, false);
    FakeTask c = ineligibleShortWakee();
    assertThat(services.resched).isEmpty();
    assertThat(se(c).vprot).isEqualTo(10_375_000);
  }
}
