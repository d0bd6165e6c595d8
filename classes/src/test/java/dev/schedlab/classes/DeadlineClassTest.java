package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static dev.schedlab.api.SchedFlags.WF_FORK;
import static dev.schedlab.api.SchedFlags.WF_TTWU;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** CBS and EDF with a (2 ms, 10 ms, 10 ms) reservation: bandwidth 0.2. */
class DeadlineClassTest {
  private static final long MS = 1_000_000L;
  private FakeServices s;
  private FakeEngine e;
  private FakeTask t;

  @BeforeEach
  void setUp() {
    s = new FakeServices(2, 2);
    e = new FakeEngine(new DeadlineClass(), s);
    t = FakeTask.dl(1, 2 * MS, 10 * MS, 10 * MS);
  }

  private DlEntity dl(FakeTask task) {
    return (DlEntity) task.classData();
  }

  /** Starts t at 0, runs it 1 ms and blocks it: 1 ms left, deadline 10 ms. */
  private void runOneMsAndSleep() {
    e.enqueue(0, t, ENQUEUE_INITIAL | ENQUEUE_WAKEUP);
    assertThat(dl(t).deadline).isEqualTo(10 * MS);
    assertThat(dl(t).runtime).isEqualTo(2 * MS);
    e.schedule(0, false);
    e.run(0, MS);
    e.schedule(0, true);
    assertThat(dl(t).runtime).isEqualTo(MS);
  }

  @Test
  void wakeupKeepsDeadlineWhenNoOverflow() {
    runOneMsAndSleep();
    s.setNow(2 * MS); // 1 ms / 8 ms = 0.125 <= 0.2
    e.wake(0, t, ENQUEUE_WAKEUP);
    assertThat(dl(t).deadline).isEqualTo(10 * MS);
    assertThat(dl(t).runtime).isEqualTo(MS);
  }

  @Test
  void wakeupStartsNewPeriodOnOverflow() {
    runOneMsAndSleep();
    s.setNow(6 * MS); // 1 ms / 4 ms = 0.25 > 0.2
    e.wake(0, t, ENQUEUE_WAKEUP);
    assertThat(dl(t).deadline).isEqualTo(16 * MS);
    assertThat(dl(t).runtime).isEqualTo(2 * MS);
  }

  @Test
  void wakeupAfterDeadlineStartsNewPeriod() {
    runOneMsAndSleep();
    s.setNow(12 * MS);
    e.wake(0, t, ENQUEUE_WAKEUP);
    assertThat(dl(t).deadline).isEqualTo(22 * MS);
    assertThat(dl(t).runtime).isEqualTo(2 * MS);
  }

  @Test
  void throttlesAtZeroRuntimeAndReplenishesFromTimer() {
    t.allowedMask = 0b01; // pinned: the timer's push_dl_task() would move it to the free CPU 1
    e.enqueue(0, t, ENQUEUE_INITIAL);
    e.schedule(0, false);
    e.run(0, 2 * MS);
    assertThat(dl(t).throttled).isTrue();
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.FORCE));
    assertThat(e.cls.pickNext(s.rq(0))).isNull();
    assertThat(e.cls.nrQueued(s.rq(0))).isEqualTo(1); // still queued for the engine
    assertThat(e.schedule(0, false)).isSameAs(s.rq(0).idle);
    assertThat(s.timers).hasSize(1);
    assertThat(s.timers.get(0).expires()).isEqualTo(10 * MS);

    s.resched.clear();
    s.timers.get(0).fire();
    assertThat(dl(t).throttled).isFalse();
    assertThat(dl(t).deadline).isEqualTo(20 * MS);
    assertThat(dl(t).runtime).isEqualTo(2 * MS);
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.IDLE_CURR));
    assertThat(e.schedule(0, false)).isSameAs(t);

    e.run(0, 3 * MS); // overrun by 1 ms: the next replenishment pays it back
    s.timers.get(0).fire();
    assertThat(s.timers).hasSize(1); // the same timer is re-armed
    assertThat(dl(t).deadline).isEqualTo(30 * MS);
    assertThat(dl(t).runtime).isEqualTo(MS);
  }

  @Test
  void timerOfBlockedThrottledTaskOnlyReplenishes() {
    e.enqueue(0, t, ENQUEUE_INITIAL);
    e.schedule(0, false);
    e.run(0, 2 * MS);
    e.schedule(0, true); // blocks while throttled
    s.resched.clear();
    s.timers.get(0).fire();
    assertThat(s.resched).isEmpty();
    assertThat(e.cls.pickNext(s.rq(0))).isNull();
    assertThat(dl(t).runtime).isEqualTo(2 * MS);
  }

  @Test
  void earliestDeadlineRunsAndEarlierWakeePreempts() {
    FakeTask late = FakeTask.dl(2, MS, 50 * MS, 50 * MS);
    e.enqueue(0, late, ENQUEUE_INITIAL);
    assertThat(e.schedule(0, false)).isSameAs(late);
    FakeTask later = FakeTask.dl(3, MS, 80 * MS, 80 * MS);
    e.wake(0, later, ENQUEUE_INITIAL);
    assertThat(s.resched).isEmpty();
    e.wake(0, t, ENQUEUE_INITIAL); // deadline 10 ms < 50 ms
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.FORCE));
    assertThat(e.schedule(0, false)).isSameAs(t);
  }

  @Test
  void aWokenTaskLeavesOnlyACpuWhoseDeadlineTaskItWouldNotPreempt() {
    // select_task_rq_dl(): CPU 0 runs a deadline task (deadline 50 ms); CPU 1 runs a fair task.
    FakeTask other = FakeTask.dl(2, MS, 50 * MS, 50 * MS);
    e.enqueue(0, other, ENQUEUE_INITIAL);
    e.schedule(0, false);
    s.rq(1).curr = FakeTask.normal(9);
    s.rq(1).nrRunning = 1;
    FakeTask late = FakeTask.dl(3, MS, 80 * MS, 80 * MS);
    e.enqueue(0, late, ENQUEUE_INITIAL); // deadline 80 ms, after other's
    e.cls.dequeue(s.rq(0), late, 0);
    late.cpu = 0;
    assertThat(e.cls.selectCpu(late, 1, 0, WF_TTWU)).isEqualTo(1); // prev runs fair: stay
    assertThat(e.cls.selectCpu(late, 0, 0, WF_TTWU)).isEqualTo(1); // behind other: free CPU 1
    assertThat(e.cls.selectCpu(late, 0, 0, WF_FORK)).isEqualTo(0); // fork stays
    e.enqueue(0, t, ENQUEUE_INITIAL); // deadline 10 ms, would preempt other: stays on CPU 0
    e.cls.dequeue(s.rq(0), t, 0);
    t.cpu = 0;
    assertThat(e.cls.selectCpu(t, 0, 0, WF_TTWU)).isEqualTo(0);
    late.allowedMask = 0b01;
    assertThat(e.cls.selectCpu(late, 0, 0, WF_TTWU)).isEqualTo(0); // only CPU 0 allowed
  }
}
