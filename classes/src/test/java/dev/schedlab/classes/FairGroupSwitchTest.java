package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code pick_next_task_fair()}'s switch between two tasks of one group (one CPU, base slice 0.75
 * ms): the group's entity stays current, and keeps the slice protection it got when it was picked.
 */
class FairGroupSwitchTest {
  private static final long MS = 1_000_000L;
  private FakeServices services;
  private FairClass fair;
  private FakeEngine engine;

  @BeforeEach
  void setUp() {
    services = new FakeServices(1, 1);
    services.machine.addGroup(0, 1024);
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
  }

  private static FakeTask inGroup(int pid, int group) {
    FakeTask t = FakeTask.normal(pid);
    t.group = group;
    return t;
  }

  @Test
  void aGroupEntityKeepsItsSliceProtectionWhileItsTasksAlternate() {
    FakeTask root = FakeTask.normal(3);
    FakeTask a1 = inGroup(1, 1);
    FakeTask a2 = inGroup(2, 1);
    engine.enqueue(0, root, ENQUEUE_INITIAL); // deadline 0.375 ms: runs first
    engine.enqueue(0, a1, ENQUEUE_INITIAL);
    engine.enqueue(0, a2, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(root);
    engine.run(0, 2 * MS); // root: v 2 ms
    assertThat(engine.schedule(0, false)).isSameAs(a1); // the group: v 0, eligible
    FairEntity g = Objects.requireNonNull(fair.group(1).se)[0];
    long vprot = g.vprot; // its deadline, 0.75 ms
    engine.run(0, MS); // the group: v 1 ms, past its deadline: a new one at 1.75 ms
    // a1 sleeps (delayed: not eligible among its group's tasks); the group, eligible (V 1.5 ms)
    // and the only eligible entity, runs a2 next
    assertThat(engine.schedule(0, true)).isSameAs(a2);
    assertThat(fair.rq(0).curr).isSameAs(g);
    assertThat(g.vprot).isEqualTo(vprot); // not renewed: protection is over (v 1 ms)

    // A wakee with saved positive lag lands before the group (v 0.6 ms, deadline 1.35 ms): with
    // its protection over, the group is preempted; renewed, it would have run to its deadline.
    FakeTask w = FakeTask.normal(5);
    fair.entity(w).vlag = 600_000;
    services.resched.clear();
    engine.wake(0, w, ENQUEUE_WAKEUP);
    assertThat(services.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
  }

  @Test
  void aSwitchBetweenGroupsProtectsTheNewGroupsEntity() {
    services.machine.addGroup(0, 1024);
    fair = new FairClass();
    engine = new FakeEngine(fair, services);
    FakeTask a = inGroup(1, 1);
    FakeTask b = inGroup(2, 2);
    engine.enqueue(0, b, ENQUEUE_INITIAL);
    engine.enqueue(0, a, ENQUEUE_INITIAL);
    assertThat(engine.schedule(0, false)).isSameAs(b); // a tie: group 2's entity, queued first
    engine.run(0, MS);
    assertThat(engine.schedule(0, true)).isSameAs(a);
    FairEntity g = Objects.requireNonNull(fair.group(1).se)[0];
    assertThat(fair.rq(0).curr).isSameAs(g);
    assertThat(g.vprot).isEqualTo(g.deadline); // set_next_entity() at the root: protected
    assertThat(g.isProtected()).isTrue();
  }
}
