package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * DELAY_DEQUEUE of group entities on one CPU (base slice 0.75 ms): two groups of weight 1024 at the
 * top level, a task in each. Group 2's entity sorts first on equal deadlines, so its task runs
 * first.
 */
class FairGroupDelayTest {
  private static final long MS = 1_000_000L;
  private FakeServices services;
  private FairClass fair;
  private FakeEngine engine;
  private FakeTask hog; // in group 2
  private FakeTask other; // in group 1

  @BeforeEach
  void setUp() {
    services = new FakeServices(1, 1);
    services.machine.addGroup(0, 1024);
    services.machine.addGroup(0, 1024);
    start();
  }

  private void start() {
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
    hog = FakeTask.normal(1);
    hog.group = 2;
    other = FakeTask.normal(2);
    other.group = 1;
  }

  private FairEntity group(int id) {
    return Objects.requireNonNull(fair.group(id).se)[0];
  }

  private static FairEntity se(FakeTask t) {
    return (FairEntity) Objects.requireNonNull(t.classData());
  }

  /** Both queued, the hog runs 3 ms (its group's v 3 ms, V 1.5 ms) and sleeps. */
  private void hogRunsAndSleeps() {
    engine.enqueue(0, hog, ENQUEUE_INITIAL);
    engine.enqueue(0, other, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(hog);
    engine.run(0, 3 * MS);
    assertThat(engine.schedule(0, true)).isSameAs(other);
  }

  @Test
  void aGroupEntityThatSleepsIneligibleStaysQueuedAndLeavesWhenPicked() {
    hogRunsAndSleeps();
    FairEntity g = group(2);
    // the task itself was alone in its group's runqueue (eligible there): it is dequeued
    assertThat(hog.onRq).isFalse();
    assertThat(se(hog).onRq).isFalse();
    // its group's entity, not eligible, stays queued and empty on the root
    assertThat(g.delayed).isTrue();
    assertThat(g.onRq).isTrue();
    assertThat(fair.rq(0).nrQueued).isEqualTo(2);
    assertThat(fair.nrQueued(services.rq(0))).isEqualTo(1); // one task queued
    assertThat(g.weight).isEqualTo(1024); // an empty group keeps its weight
    assertThat(services.completedDelayed).isEmpty(); // nothing for the engine: no task delayed

    engine.run(0, MS); // other's group: v 1 ms; V 2 ms
    assertThat(engine.schedule(0, true)).isSameAs(services.rq(0).idle);
    // other's group was eligible: dequeued with its positive lag
    assertThat(group(1).onRq).isFalse();
    assertThat(group(1).vlag).isEqualTo(MS);
    // the delayed entity was the only one left: picking it completed its dequeue
    assertThat(g.onRq).isFalse();
    assertThat(g.delayed).isFalse();
    assertThat(g.vlag).isZero(); // alone: V == its v
    assertThat(fair.rq(0).nrQueued).isZero();
  }

  @Test
  void aTaskWakingIntoItsDelayedGroupIsQueuedUnderTheEntityKeptInPlace() {
    hogRunsAndSleeps();
    FairEntity g = group(2);
    assertThat(g.delayed).isTrue();
    long v = g.vruntime;
    long deadline = g.deadline;
    services.resched.clear();
    engine.wake(0, hog, ENQUEUE_WAKEUP);
    assertThat(g.delayed).isFalse();
    assertThat(g.vruntime).isEqualTo(v); // lag still negative: not placed again
    assertThat(g.deadline).isEqualTo(deadline);
    assertThat(se(hog).onRq).isTrue();
    assertThat(fair.rq(0).nrQueued).isEqualTo(2);
    assertThat(fair.nrQueued(services.rq(0))).isEqualTo(2);
    // still not eligible: the wakee does not preempt, and other keeps the CPU
    assertThat(services.resched).isEmpty();
    assertThat(engine.schedule(0, false)).isSameAs(other);
  }

  @Test
  void withDelayZeroAGroupWhoseLagTurnedPositiveIsPlacedAgainAtZeroLag() {
    hogRunsAndSleeps();
    engine.run(0, 5 * MS); // other's group: v 5 ms; the delayed one (3 ms) now lags by +1 ms
    engine.wake(0, hog, ENQUEUE_WAKEUP);
    FairEntity g = group(2);
    assertThat(g.delayed).isFalse();
    assertThat(g.vruntime).isEqualTo(group(1).vruntime); // at V of the runqueue without it
    assertThat(g.deadline - g.vruntime).isEqualTo(750_000); // a full slice
  }

  @Test
  void delayedGroupEntitiesPickedWithOthersQueuedLeaveOneAfterTheOtherWithoutPositiveLag() {
    engine.enqueue(0, hog, ENQUEUE_INITIAL);
    engine.enqueue(0, other, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(hog);
    engine.run(0, 3 * MS); // group 2: v 3 ms, deadline 3.75 ms
    FakeTask third = FakeTask.normal(3); // in the root group
    engine.enqueue(0, third, ENQUEUE_INITIAL); // at V = 1.5 ms
    assertThat(engine.schedule(0, true)).isSameAs(other); // V 1.5 ms: group 2 delayed
    FairEntity g = group(2);
    assertThat(g.delayed).isTrue();
    engine.run(0, 4 * MS); // group 1: v 4 ms, deadline 4.75 ms; V (3 + 4 + 1.5) / 3
    assertThat(engine.schedule(0, true)).isSameAs(third); // group 1 not eligible: delayed too
    assertThat(group(1).delayed).isTrue();
    engine.run(0, 3_500_000); // third: v 5 ms; V 4 ms
    assertThat(engine.schedule(0, true)).isSameAs(services.rq(0).idle);
    // third, not eligible, is delayed; the pick meets group 2 (eligible, earliest deadline) and
    // completes its dequeue (its +1 ms lag cut to zero), then group 1 (V 4.5 ms, +0.5 ms cut),
    // then third, then nothing
    assertThat(g.onRq).isFalse();
    assertThat(g.vlag).isZero();
    assertThat(group(1).onRq).isFalse();
    assertThat(group(1).vlag).isZero();
    assertThat(services.completedDelayed).containsExactly(third);
    assertThat(fair.rq(0).nrQueued).isZero();
  }

  @Test
  void aNestedGroupLeavesItsParentWhichIsDelayedOnTheRoot() {
    services = new FakeServices(1, 1);
    services.machine.addGroup(0, 1024); // other's
    int parent = services.machine.addGroup(0, 1024);
    int child = services.machine.addGroup(parent, 1024);
    start();
    hog.group = child;
    hogRunsAndSleeps();
    // the child group's entity was alone (eligible) in the parent's runqueue: dequeued; the
    // parent's entity, emptied and not eligible on the root, is delayed
    assertThat(group(child).onRq).isFalse();
    assertThat(group(parent).delayed).isTrue();
    assertThat(group(parent).onRq).isTrue();
    engine.wake(0, hog, ENQUEUE_WAKEUP);
    // the child's entity is enqueued again under the parent's, which is requeued in place
    assertThat(group(child).onRq).isTrue();
    assertThat(group(parent).delayed).isFalse();
    assertThat(fair.rq(0).hNrQueued).isEqualTo(2);
  }

  @Test
  void withoutDelayDequeueTheGroupEntityLeavesAtOnceWithItsLagClamped() {
    services.params.put("feature.DELAY_DEQUEUE", 0L);
    start();
    hogRunsAndSleeps();
    FairEntity g = group(2);
    assertThat(g.delayed).isFalse();
    assertThat(g.onRq).isFalse();
    assertThat(fair.rq(0).nrQueued).isEqualTo(1);
    assertThat(g.vlag).isEqualTo(-1_500_000); // V - v = -1.5 ms, within ±max(2 slices, 1 tick)
  }
}
