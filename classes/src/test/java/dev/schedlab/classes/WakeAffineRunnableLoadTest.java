package dev.schedlab.classes;

import static dev.schedlab.api.SchedFlags.ENQUEUE_INITIAL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * {@code wake_affine_weight()} before and after v5.5 (11f10e5420f6): prev's CPU has only blocked
 * load (its task ran 100 ms and sleeps), the waker's CPU none. {@code cpu_load()} counts the
 * blocked load, so the waker's CPU looks lighter and the wakee is pulled to its LLC; v4.17's
 * runnable load leaves it out, the loads are equal, and the wakee stays in prev's LLC.
 */
class WakeAffineRunnableLoadTest {
  private static final long MS = 1_000_000L;

  /** Four CPUs, LLCs {0,1} and {2,3}; CPUs 0 and 2 busy with tasks of another class. */
  private static int wakeTarget(boolean runnableLoad) {
    FakeServices s = new FakeServices(4, 2);
    s.params.put("feature.WA_WEIGHT_RUNNABLE_LOAD", runnableLoad ? 1L : 0L);
    FairClass fair = new FairClass();
    FakeEngine engine = new FakeEngine(fair, s);
    FakeTask sleeper = FakeTask.normal(20);
    engine.enqueue(2, sleeper, ENQUEUE_INITIAL);
    engine.schedule(2, false);
    engine.run(2, 100 * MS);
    engine.schedule(2, true); // its load stays on CPU 2 as blocked load
    s.rq(0).curr = FakeTask.normal(10);
    s.rq(0).nrRunning = 1;
    s.rq(2).curr = FakeTask.normal(12);
    s.rq(2).nrRunning = 1;
    assertThat(fair.rq(2).avg.loadAvg).isGreaterThan(800); // 100 ms of running: ~ 0.89 x 1024
    return fair.selectCpu(FakeTask.normal(1), 2, 0, SchedFlags.WF_TTWU);
  }

  @Test
  void blockedLoadOnPrevPullsTheWakeeToTheWakersLlcSinceV55() {
    assertThat(wakeTarget(false)).isEqualTo(1); // affine: target 0 busy, its idle sibling 1
  }

  @Test
  void v417RunnableLoadLeavesBlockedLoadOutAndKeepsPrevsLlc() {
    assertThat(wakeTarget(true)).isEqualTo(3); // prev 2 busy, its idle sibling 3
  }
}
