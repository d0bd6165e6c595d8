package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_WAKEUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeServices.Resched;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

class RtClassTest {
  private static final long MS = 1_000_000L;

  private FakeEngine engine(FakeServices s) {
    return new FakeEngine(new RtClass(), s);
  }

  @Test
  void picksHighestPriorityThenFifoOrder() {
    FakeServices s = new FakeServices(1, 1);
    FakeEngine e = engine(s);
    FakeTask low = FakeTask.rt(1, Policy.FIFO, 10);
    FakeTask high = FakeTask.rt(2, Policy.FIFO, 80);
    FakeTask high2 = FakeTask.rt(3, Policy.FIFO, 80);
    e.enqueue(0, low, ENQUEUE_WAKEUP);
    e.enqueue(0, high, ENQUEUE_WAKEUP);
    e.enqueue(0, high2, ENQUEUE_WAKEUP);
    assertThat(e.schedule(0, false)).isSameAs(high);
    assertThat(e.schedule(0, true)).isSameAs(high2);
    assertThat(e.schedule(0, true)).isSameAs(low);
    assertThat(e.cls.nrQueued(s.rq(0))).isEqualTo(1);
  }

  @Test
  void roundRobinRotatesAfterTimeslice() {
    FakeServices s = new FakeServices(1, 1);
    s.params.put("sched.rr_timeslice", 3 * MS); // 3 ticks at HZ=1000
    FakeEngine e = engine(s);
    FakeTask a = FakeTask.rt(1, Policy.RR, 50);
    FakeTask b = FakeTask.rt(2, Policy.RR, 50);
    e.enqueue(0, a, ENQUEUE_WAKEUP);
    e.enqueue(0, b, ENQUEUE_WAKEUP);
    assertThat(e.schedule(0, false)).isSameAs(a);
    e.tick(0, MS);
    e.tick(0, MS);
    assertThat(s.resched).isEmpty();
    e.tick(0, MS);
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.FORCE));
    assertThat(e.schedule(0, false)).isSameAs(b);
    assertThat(((RtEntity) a.classData()).timeSliceTicks).isEqualTo(3);
  }

  @Test
  void lonelyRoundRobinTaskIsNotRescheduled() {
    FakeServices s = new FakeServices(1, 1);
    s.params.put("sched.rr_timeslice", MS);
    FakeEngine e = engine(s);
    FakeTask a = FakeTask.rt(1, Policy.RR, 50);
    e.enqueue(0, a, ENQUEUE_WAKEUP);
    e.schedule(0, false);
    e.tick(0, MS);
    e.tick(0, MS);
    assertThat(s.resched).isEmpty();
  }

  @Test
  void higherPriorityWakeupReschedulesEqualDoesNot() {
    FakeServices s = new FakeServices(1, 1);
    FakeEngine e = engine(s);
    FakeTask curr = FakeTask.rt(1, Policy.FIFO, 20);
    e.enqueue(0, curr, ENQUEUE_WAKEUP);
    e.schedule(0, false);
    e.wake(0, FakeTask.rt(2, Policy.FIFO, 20), ENQUEUE_WAKEUP);
    assertThat(s.resched).isEmpty();
    e.wake(0, FakeTask.rt(3, Policy.RR, 21), ENQUEUE_WAKEUP);
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.WAKEUP_SAME_CLASS));
  }

  @Test
  void throttlesWhenBudgetExceededUntilPeriodTimer() {
    FakeServices s = new FakeServices(1, 1);
    s.params.put("sched.rt_period", 10 * MS);
    s.params.put("sched.rt_runtime", 5 * MS);
    FakeEngine e = engine(s);
    FakeTask a = FakeTask.rt(1, Policy.FIFO, 50);
    e.enqueue(0, a, ENQUEUE_WAKEUP);
    assertThat(s.timers).hasSize(1);
    assertThat(s.timers.get(0).expires()).isEqualTo(10 * MS);
    e.schedule(0, false);
    e.run(0, 5 * MS);
    assertThat(s.resched).isEmpty(); // exactly at budget: not exceeded yet
    e.run(0, MS);
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.FORCE));
    assertThat(e.cls.pickNext(s.rq(0))).isNull();
    assertThat(e.schedule(0, false)).isSameAs(s.rq(0).idle);

    s.resched.clear();
    s.timers.get(0).fire(); // refund 5 ms: rt_time 6 ms -> 1 ms < 5 ms, unthrottle
    assertThat(s.resched).containsExactly(new Resched(0, ReschedReason.IDLE_CURR));
    assertThat(e.cls.pickNext(s.rq(0))).isSameAs(a);
    assertThat(s.timers.get(0).armed()).isTrue();
    assertThat(s.timers.get(0).expires()).isEqualTo(20 * MS);
    assertThat(s.counterValue("rt.throttled")).isEqualTo(1);
  }

  @Test
  void runtimeEqualToPeriodDisablesThrottling() {
    FakeServices s = new FakeServices(1, 1);
    s.params.put("sched.rt_period", 10 * MS);
    s.params.put("sched.rt_runtime", 10 * MS);
    FakeEngine e = engine(s);
    FakeTask a = FakeTask.rt(1, Policy.FIFO, 50);
    e.enqueue(0, a, ENQUEUE_WAKEUP);
    e.schedule(0, false);
    e.run(0, 50 * MS);
    assertThat(e.cls.pickNext(s.rq(0))).isSameAs(a);
    assertThat(s.timers).isEmpty();
  }

  @Test
  void selectCpuAvoidsHigherPriorityPrevAndPrefersIdle() {
    FakeServices s = new FakeServices(3, 3);
    FakeEngine e = engine(s);
    FakeTask busy = FakeTask.rt(1, Policy.FIFO, 90);
    e.enqueue(0, busy, ENQUEUE_WAKEUP);
    e.schedule(0, false);
    FakeTask fairCurr = FakeTask.normal(2);
    s.rq(1).curr = fairCurr;
    s.rq(1).nrRunning = 1;
    FakeTask p = FakeTask.rt(3, Policy.FIFO, 40);
    assertThat(e.cls.selectCpu(p, 0, 0, 0)).isEqualTo(2); // CPU 2 idle: lowest level
    p.allowedMask = 0b011;
    assertThat(e.cls.selectCpu(p, 0, 0, 0)).isEqualTo(1); // fair curr on CPU 1
    FakeTask p2 = FakeTask.rt(4, Policy.FIFO, 95);
    assertThat(e.cls.selectCpu(p2, 0, 0, 0)).isEqualTo(0); // beats the prio-90 curr: stay
  }
}
