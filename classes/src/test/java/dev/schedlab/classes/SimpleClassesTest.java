package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class SimpleClassesTest {
  @Test
  void serviceLoaderFindsTheFiveClassesWithDistinctRanks() {
    List<String> names = new ArrayList<>();
    List<Integer> ranks = new ArrayList<>();
    for (SchedulingClass c : ServiceLoader.load(SchedulingClass.class)) {
      names.add(c.name());
      ranks.add(c.rank());
    }
    assertThat(names).containsExactly("stop", "deadline", "rt", "fair", "idle");
    assertThat(ranks)
        .containsExactly(
            SchedulingClass.RANK_STOP,
            SchedulingClass.RANK_DEADLINE,
            SchedulingClass.RANK_RT,
            SchedulingClass.RANK_FAIR,
            SchedulingClass.RANK_IDLE);
  }

  @Test
  void stopClassIsPerCpuFifo() {
    FakeServices s = new FakeServices(2, 2);
    FakeEngine e = new FakeEngine(new StopClass(), s);
    FakeTask a = new FakeTask(1, Policy.STOP);
    FakeTask b = new FakeTask(2, Policy.STOP);
    FakeTask c = new FakeTask(3, Policy.STOP);
    e.enqueue(0, a, ENQUEUE_WAKEUP);
    e.enqueue(0, b, ENQUEUE_WAKEUP);
    e.enqueue(1, c, ENQUEUE_WAKEUP);
    assertThat(e.schedule(0, false)).isSameAs(a);
    assertThat(e.schedule(0, false)).isSameAs(a); // stays at the head while running
    assertThat(e.schedule(0, true)).isSameAs(b);
    assertThat(e.cls.pickNext(s.rq(1))).isSameAs(c);
    assertThat(e.cls.handles(Policy.STOP)).isTrue();
    assertThat(e.cls.handles(Policy.FIFO)).isFalse();
  }

  @Test
  void idleClassReturnsTheIdleTaskAndQueuesNothing() {
    FakeServices s = new FakeServices(1, 1);
    IdleClass idle = new IdleClass();
    idle.init(s.machine, s);
    assertThat(idle.pickNext(s.rq(0))).isSameAs(s.rq(0).idle);
    assertThat(idle.nrQueued(s.rq(0))).isZero();
    assertThatThrownBy(() -> idle.enqueue(s.rq(0), FakeTask.normal(1), 0))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void fairSelectCpuFindsIdleSiblingInTargetLlc() {
    FakeServices s = new FakeServices(4, 2); // LLC {0,1} and {2,3}
    FairClass fair = new FairClass();
    fair.init(s.machine, s);
    FakeTask p = FakeTask.normal(1);
    s.rq(0).curr = FakeTask.normal(10);
    s.rq(0).nrRunning = 1;
    s.rq(2).curr = FakeTask.normal(12);
    s.rq(2).nrRunning = 1;
    int ttwu = SchedFlags.WF_TTWU;
    // No load anywhere: wake_affine_weight() keeps prev 2 (busy); its LLC's idle CPU 3 wins.
    assertThat(fair.selectCpu(p, 2, 0, ttwu)).isEqualTo(3);
    assertThat(fair.selectCpu(p, 1, 0, ttwu)).isEqualTo(1); // wake_affine_idle(): idle prev
    s.rq(1).curr = FakeTask.normal(11);
    s.rq(1).nrRunning = 1;
    // Sync wakeup from CPU 0 (one task) with busy prev 1 in the same LLC: waker's CPU.
    assertThat(fair.selectCpu(p, 1, 0, ttwu | SchedFlags.WF_SYNC)).isEqualTo(0);
    // Not sync: LLC {0,1} has no idle CPU, so prev stays the target.
    assertThat(fair.selectCpu(p, 1, 0, ttwu)).isEqualTo(1);
    // Not allowed on the waker's CPU: no affine wakeup, and the scan stays in prev's LLC.
    p.allowedMask = 0b1010;
    assertThat(fair.selectCpu(p, 1, 0, ttwu)).isEqualTo(1);
  }
}
