package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Hand-worked EEVDF scenarios on one CPU (base slice 0.75 ms × (1 + ilog2(1)) = 0.75 ms). */
class FairClassTest {
  private static final long MS = 1_000_000L;
  private FakeServices services;
  private FairClass fair;
  private FakeEngine engine;

  @BeforeEach
  void setUp() {
    services = new FakeServices(1, 1);
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
  }

  private static FairEntity se(FakeTask t) {
    return (FairEntity) t.classData();
  }

  /** Puts an entity straight into the queue with hand-chosen values. */
  private FakeTask queued(int pid, int nice, long v, long deadline) {
    FakeTask t = FakeTask.normal(pid);
    t.nice = nice;
    t.onRq = true;
    FairEntity e = new FairEntity(t);
    e.weight = t.weight();
    e.vruntime = v;
    e.deadline = deadline;
    e.slice = 750_000;
    e.onRq = true;
    t.setClassData(e);
    FairRq q = fair.rq(0);
    q.add(e);
    q.nrQueued++;
    services.rq(0).nrRunning++;
    return t;
  }

  @Test
  void baseSliceScalesWithLogOfCpuCount() {
    assertThat(fair.features().baseSliceNs()).isEqualTo(750_000);
    FairClass eight = new FairClass();
    eight.init(new FakeServices(16, 16).machine, new FakeServices(16, 16));
    assertThat(eight.features().baseSliceNs()).isEqualTo(3_000_000); // 0.75 ms × (1 + 3)
  }

  @Test
  void vruntimeAdvancesByDeltaTimes1024OverWeight() {
    FakeTask a = FakeTask.normal(1);
    a.nice = 5; // weight 335
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    long v0 = se(a).vruntime;
    engine.run(0, MS);
    // 1_000_000 * 1024 / 335 = 3_056_716.4 -> 3_056_716
    assertThat(se(a).vruntime - v0).isEqualTo(3_056_716L);
    FakeTask b = FakeTask.normal(2); // nice 0: virtual time == real time
    FairClass other = new FairClass();
    FakeEngine e2 = new FakeEngine(other, new FakeServices(1, 1));
    e2.enqueue(0, b, ENQUEUE_INITIAL);
    e2.schedule(0, false);
    e2.run(0, MS);
    assertThat(se(b).vruntime).isEqualTo(MS);
  }

  @Test
  void picksEligibleEarliestDeadlineAndSkipsIneligibleEarlierDeadline() {
    // Three nice-0 tasks: v = 0, 3 ms, 6 ms -> V = 3 ms. C (v = 6 ms) has the earliest deadline
    // but is not eligible; B (v = 3 ms = V) is eligible with deadline 5 ms < A's 10 ms.
    FakeTask a = queued(1, 0, 0, 10 * MS);
    FakeTask b = queued(2, 0, 3 * MS, 5 * MS);
    FakeTask c = queued(3, 0, 6 * MS, 4 * MS);
    FairRq q = fair.rq(0);
    assertThat(q.avgVruntime()).isEqualTo(3 * MS);
    assertThat(q.eligible(se(c).vruntime)).isFalse();
    assertThat(q.eligible(se(b).vruntime)).isTrue();
    assertThat(fair.pickNext(services.rq(0))).isSameAs(b);
    assertThat(a).isNotSameAs(b);
  }

  @Test
  void weightedAverageDecidesEligibility() {
    // A nice -5 (3121) at 0, B and C nice 0 (1024) at 4 ms and 8 ms:
    // V = (1024*4e6 + 1024*8e6) / 5169 = 2_377_248.9 -> 2_377_248; only A is eligible, so A
    // runs although its deadline (9 ms) is the latest.
    FakeTask a = queued(1, -5, 0, 9 * MS);
    queued(2, 0, 4 * MS, 5 * MS);
    queued(3, 0, 8 * MS, 6 * MS);
    assertThat(fair.rq(0).avgVruntime()).isEqualTo(2_377_248L);
    assertThat(fair.pickNext(services.rq(0))).isSameAs(a);
  }

  @Test
  void placeLagScalesSavedLagSoItSurvivesTheJoin() {
    queued(1, 0, 0, 10 * MS);
    queued(2, 0, 4 * MS, 12 * MS); // V = 2 ms, load 2048
    FakeTask p = FakeTask.normal(3);
    FairEntity pe = new FairEntity(p);
    pe.vlag = MS; // saved at its last dequeue
    p.setClassData(pe);
    services.setNow(50 * MS);
    engine.enqueue(0, p, ENQUEUE_WAKEUP);
    // lag' = 1 ms * (2048 + 1024) / 2048 = 1.5 ms -> v = 2 ms - 1.5 ms = 0.5 ms
    assertThat(pe.vruntime).isEqualTo(500_000);
    assertThat(pe.deadline).isEqualTo(500_000 + 750_000);
    // After the join V = (0 + 4 ms + 0.5 ms) / 3 = 1.5 ms, so the lag is still 1 ms.
    assertThat(fair.rq(0).avgVruntime() - pe.vruntime).isEqualTo(MS);
  }

  @Test
  void placeLagOffPlacesAtV() {
    services.params.put("feature.PLACE_LAG", 0L);
    fair.init(services.machine, services);
    queued(1, 0, 0, 10 * MS);
    queued(2, 0, 4 * MS, 12 * MS);
    FakeTask p = FakeTask.normal(3);
    FairEntity pe = new FairEntity(p);
    pe.vlag = MS;
    p.setClassData(pe);
    engine.enqueue(0, p, ENQUEUE_WAKEUP);
    assertThat(pe.vruntime).isEqualTo(2 * MS);
  }

  /**
   * Two sleepers with no lag woken together onto an idle CPU (timers expiring in one interrupt) get
   * the same vruntime and deadline: the one woken first runs first, as the kernel's rb-tree keeps
   * equal deadlines in insertion order ({@code entity_before()} compares deadlines only), even when
   * the second has the lower pid.
   */
  @Test
  void equalDeadlinesRunInWakeupOrderNotPidOrder() {
    FakeTask first = FakeTask.normal(7);
    FakeTask second = FakeTask.normal(3);
    for (FakeTask t : new FakeTask[] {first, second}) {
      t.setClassData(new FairEntity(t)); // a sleeper that saved no lag
    }
    services.setNow(50 * MS);
    engine.enqueue(0, first, ENQUEUE_WAKEUP);
    engine.enqueue(0, second, ENQUEUE_WAKEUP);
    assertThat(se(second).deadline).isEqualTo(se(first).deadline);
    assertThat(engine.schedule(0, false)).isSameAs(first);
  }

  @Test
  void newTaskGetsHalfSliceDeadline() {
    FakeTask a = FakeTask.normal(1);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    assertThat(se(a).deadline - se(a).vruntime).isEqualTo(375_000);
  }

  @Test
  void aTaskCreatedAlreadyWokenGetsAWholeSliceAndANewTasksLoad() {
    // ENQUEUE_INITIAL | ENQUEUE_WAKEUP: a task that existed before the run (an imported trace's)
    // is no fork: placed as a woken task, with a new task's PELT start
    FakeTask a = FakeTask.normal(1);
    engine.enqueue(0, a, ENQUEUE_INITIAL | ENQUEUE_WAKEUP);
    assertThat(se(a).deadline - se(a).vruntime).isEqualTo(750_000);
    assertThat(se(a).avg.loadAvg).isEqualTo(1024);
  }

  @Test
  void sliceExpiryReschedulesOnlyWithCompetition() {
    FakeTask a = FakeTask.normal(1);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.tick(0, MS); // alone: new deadline but no resched
    assertThat(se(a).deadline).isEqualTo(MS + 750_000);
    assertThat(services.resched).isEmpty();
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, b, ENQUEUE_INITIAL);
    services.resched.clear();
    engine.tick(0, MS); // v = 2 ms >= 1.75 ms
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.SLICE_EXPIRY_TICK));
  }

  @Test
  void delayedDequeueKeepsNegativeLagTaskUntilPicked() {
    FakeTask a = FakeTask.normal(1);
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, a, ENQUEUE_INITIAL); // v 0, vd 0.375 ms
    engine.enqueue(0, b, ENQUEUE_INITIAL); // v 0, vd 0.375 ms
    assertThat(engine.schedule(0, false)).isSameAs(a); // tie: enqueued first
    engine.run(0, 3 * MS); // v_a = 3 ms; V = 1.5 ms: A has negative lag
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.SLICE_EXPIRY_TICK));

    assertThat(engine.schedule(0, true)).isSameAs(b); // A sleeps but stays queued, delayed
    assertThat(se(a).delayed).isTrue();
    assertThat(a.onRq).isTrue();
    assertThat(fair.nrQueued(services.rq(0))).isEqualTo(2);
    assertThat(services.completedDelayed).isEmpty();

    engine.run(0, MS); // v_b = 1 ms, V = 2 ms: B is eligible and really leaves
    assertThat(engine.schedule(0, true)).isSameAs(services.rq(0).idle);
    assertThat(se(b).vlag).isEqualTo(MS);
    // The only entity left is the delayed A: picking it completes its dequeue.
    assertThat(services.completedDelayed).containsExactly(a);
    assertThat(a.onRq).isFalse();
    assertThat(se(a).delayed).isFalse();
    assertThat(se(a).vlag).isZero(); // alone: V == v_a
    assertThat(fair.nrQueued(services.rq(0))).isZero();
    assertThat(services.rq(0).nrRunning).isZero();
  }

  /** A runs 3 ms beside B and blocks with -1.5 ms of lag: delayed, while B runs. */
  private FakeTask delayedBesideARunningTask() {
    FakeTask a = FakeTask.normal(1);
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.enqueue(0, b, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 3 * MS);
    engine.schedule(0, true); // A delayed, B runs
    return a;
  }

  @Test
  void delayedTaskWokenIsRequeuedInPlace() {
    FakeTask a = delayedBesideARunningTask();
    long v = se(a).vruntime;
    engine.wake(0, a, ENQUEUE_WAKEUP); // engine sees on_rq: ENQUEUE_DELAYED
    assertThat(se(a).delayed).isFalse();
    assertThat(se(a).vruntime).isEqualTo(v); // lag still negative: no re-placement
    assertThat(fair.nrQueued(services.rq(0))).isEqualTo(2);
    assertThat(services.completedDelayed).isEmpty();
  }

  /** A delayed (-1.5 ms of lag), then B alone for 5 ms: V = 4 ms, A's lag +1 ms when woken. */
  private long lagAfterAWakeupCompletesTheDelayedDequeue() {
    FakeTask a = delayedBesideARunningTask();
    engine.run(0, 5 * MS);
    // feature.TTWU_DEQUEUE's wakeup: the delayed dequeue completes, then the task is placed anew
    fair.dequeue(services.rq(0), a, SchedFlags.DEQUEUE_SLEEP | SchedFlags.DEQUEUE_DELAYED);
    assertThat(se(a).delayed).isFalse();
    return se(a).vlag;
  }

  @Test
  void aWakeupThatCompletesADelayedDequeueClipsTheLagEarnedWhileDelayed() {
    assertThat(lagAfterAWakeupCompletesTheDelayedDequeue()).isZero(); // DELAY_ZERO
  }

  @Test
  void theGuestsWakeupKeepsTheLagEarnedWhileDelayed() {
    services.params.put("feature.TTWU_DEQUEUE_KEEP_LAG", 1L);
    fair.init(services.machine, services);
    assertThat(lagAfterAWakeupCompletesTheDelayedDequeue()).isEqualTo(MS);
  }

  @Test
  void delayDequeueOffDequeuesAtOnceWithClampedLag() {
    services.params.put("feature.DELAY_DEQUEUE", 0L);
    fair.init(services.machine, services);
    FakeTask a = FakeTask.normal(1);
    FakeTask b = FakeTask.normal(2);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.enqueue(0, b, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 10 * MS); // V = 5 ms, lag -5 ms, clamp ±max(2*0.75 ms, 1 ms) = 1.5 ms
    engine.schedule(0, true);
    assertThat(a.onRq).isFalse();
    assertThat(se(a).vlag).isEqualTo(-1_500_000);
  }

  @Test
  void freshWakeePreemptsLongRunningTask() {
    FakeTask a = FakeTask.normal(1);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 10 * MS); // alone: v = 10 ms, deadline renewed to 10.75 ms, protection over
    FakeTask b = FakeTask.normal(2);
    engine.wake(0, b, ENQUEUE_WAKEUP | ENQUEUE_INITIAL); // v = 10 ms, vd = 10.375 ms
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
    assertThat(engine.schedule(0, false)).isSameAs(b);
  }

  /** A runs 10 ms alone, C starts (deadline 10.375 ms) and is protected; B wakes with 0.1 ms. */
  private FakeTask shortWakeeAgainstProtectedCurr() {
    fair.init(services.machine, services);
    FakeTask a = FakeTask.normal(1);
    FakeTask c = FakeTask.normal(3);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 10 * MS);
    engine.enqueue(0, c, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(c); // vd 10.375 ms < A's 10.75 ms
    assertThat(se(c).vprot).isEqualTo(10_375_000);
    services.resched.clear();
    FakeTask b = FakeTask.normal(2);
    b.customSlice = 100_000; // placed at V = 10 ms, vd = 10.1 ms: earlier than C's
    engine.wake(0, b, ENQUEUE_WAKEUP);
    return c;
  }

  @Test
  void runToParityProtectsCurrWithoutPreemptShort() {
    services.params.put("feature.PREEMPT_SHORT", 0L);
    FakeTask c = shortWakeeAgainstProtectedCurr();
    assertThat(services.resched).isEmpty();
    assertThat(se(c).isProtected()).isTrue();
  }

  @Test
  void withoutRunToParityTheEarlierDeadlineWins() {
    services.params.put("feature.PREEMPT_SHORT", 0L);
    services.params.put("feature.RUN_TO_PARITY", 0L);
    shortWakeeAgainstProtectedCurr();
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
  }

  @Test
  void shorterSliceWakeeBreaksProtection() {
    FakeTask c = shortWakeeAgainstProtectedCurr();
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
    assertThat(se(c).isProtected()).isFalse();
  }

  @Test
  void batchWakeeNeverPreemptsButAnyoneBeatsIdlePolicyCurr() {
    FakeTask a = FakeTask.normal(1);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    engine.schedule(0, false);
    engine.run(0, 10 * MS);
    FakeTask batch = new FakeTask(2, Policy.BATCH);
    engine.wake(0, batch, ENQUEUE_WAKEUP | ENQUEUE_INITIAL);
    assertThat(services.resched).isEmpty();

    FairClass f2 = new FairClass();
    FakeServices s2 = new FakeServices(1, 1);
    FakeEngine e2 = new FakeEngine(f2, s2);
    FakeTask idleCurr = new FakeTask(1, Policy.IDLE);
    e2.enqueue(0, idleCurr, ENQUEUE_INITIAL);
    e2.schedule(0, false);
    FakeTask normal = FakeTask.normal(2);
    e2.wake(0, normal, ENQUEUE_WAKEUP);
    assertThat(s2.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
    assertThat(se(idleCurr).weight).isEqualTo(3);
  }

  @Test
  void handlesFairPoliciesAndExt() {
    assertThat(fair.handles(Policy.NORMAL)).isTrue();
    assertThat(fair.handles(Policy.BATCH)).isTrue();
    assertThat(fair.handles(Policy.IDLE)).isTrue();
    assertThat(fair.handles(Policy.EXT)).isTrue();
    assertThat(fair.handles(Policy.FIFO)).isFalse();
  }
}
