package dev.schedlab.classes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.classes.fixture.FakeEngine;
import dev.schedlab.classes.fixture.FakeServices;
import dev.schedlab.classes.fixture.FakeTask;
import org.junit.jupiter.api.Test;

/**
 * {@code sched.vcpu_pack_util}: two CPUs sharing an LLC, CPU 0 busy, CPU 1 idle. Mainline sends a
 * wakee whose target is the busy CPU 0 to the idle CPU 1; with the packing threshold set, CPU 0
 * keeps it while it runs at most one task and its utilisation leaves room, before the idle prev and
 * the scan, as measured on this project's guest kernel. {@code sched.vcpu_pack_fork_util}: a task
 * forked on CPU 0 stays there while CPU 0 runs nothing but the parent and has room, where
 * mainline's {@code sched_balance_find_dst_cpu()} takes the idle CPU 1.
 */
class FairVcpuPackTest {
  private static final long THRESHOLD = 700;

  /** Where a task woken with target CPU 0 goes; prev, CPU 0's util and the threshold given. */
  private static int wake(int prev, long util0, long threshold, int flags) {
    return wake(prev, 1, util0, threshold, flags);
  }

  /**
   * Two CPUs with the packing at {@code threshold}, CPU 0 running one task and {@code runnable - 1}
   * more queued behind it, CPU 1 idle.
   */
  private static FairClass packing(FakeServices s, long threshold, int runnable) {
    s.params.put("sched.vcpu_pack_util", threshold);
    s.machine.nrIdleScan = 1;
    FairClass fair = new FairClass();
    new FakeEngine(fair, s);
    s.rq(0).curr = FakeTask.normal(10);
    s.rq(0).nrRunning = runnable;
    return fair;
  }

  /** As above, CPU 0 running one task and {@code runnable - 1} more queued behind it. */
  private static int wake(int prev, int runnable, long util0, long threshold, int flags) {
    FairClass fair = packing(new FakeServices(2, 2), threshold, runnable);
    fair.rq(0).avg.utilAvg = util0;
    FakeTask wakee = FakeTask.normal(1);
    wakee.cpu = prev;
    return fair.selectCpu(wakee, prev, 0, SchedFlags.WF_TTWU | flags);
  }

  @Test
  void mainlineWakesTheIdleCpu() {
    assertThat(wake(0, 100, 0, 0)).isEqualTo(1); // the LLC scan finds CPU 1
    assertThat(wake(1, 100, 0, SchedFlags.WF_SYNC)).isEqualTo(1); // the idle prev
  }

  @Test
  void aBusyTargetWithRoomKeepsTheWakee() {
    assertThat(wake(0, THRESHOLD - 1, THRESHOLD, 0)).isEqualTo(0);
    // a sync wakeup from CPU 0 of a task that last ran on the idle CPU 1: pulled to the waker
    assertThat(wake(1, 100, THRESHOLD, SchedFlags.WF_SYNC)).isEqualTo(0);
  }

  @Test
  void aTargetWithTwoTasksRunnableWakesTheIdleCpu() {
    // room by utilisation, but the wakee would be the third task: the guest sent it to the idle
    // CPU (docs/validation.md, 'Wakeup packing'), as mainline does
    assertThat(wake(0, 2, 100, THRESHOLD, 0)).isEqualTo(1);
    assertThat(wake(0, 1, 100, THRESHOLD, 0)).isEqualTo(0);
  }

  @Test
  void aTargetWithoutRoomWakesTheIdleCpu() {
    assertThat(wake(0, THRESHOLD, THRESHOLD, 0)).isEqualTo(1);
    assertThat(wake(1, THRESHOLD + 100, THRESHOLD, SchedFlags.WF_SYNC)).isEqualTo(1);
  }

  /**
   * Where a task that last ran on CPU 0 wakes there (sync, from CPU 0's only task): the waker and
   * the wakee with {@code utilAvg} each, both with {@code utilEst}; CPU 0's {@code util_avg} holds
   * the wakee's as blocked, its {@code util_est} the running waker's.
   */
  private static int wakePair(long utilAvg, long utilEst) {
    FairClass fair = packing(new FakeServices(2, 2), THRESHOLD, 1);
    fair.rq(0).avg.utilAvg = 2 * utilAvg;
    fair.rq(0).avg.utilEst = utilEst;
    FakeTask wakee = FakeTask.normal(1);
    wakee.cpu = 0;
    fair.entity(wakee).avg.utilAvg = utilAvg;
    fair.entity(wakee).avg.utilEst = utilEst;
    return fair.selectCpu(wakee, 0, 0, SchedFlags.WF_TTWU | SchedFlags.WF_SYNC);
  }

  @Test
  void thePackingSumsUtilAvgNotUtilEst() {
    // perf bench sched pipe on the guest: util_est held at about 440 each, util_avg about 340:
    // the pair packs again (docs/validation.md, 'Wakeup packing')
    assertThat(wakePair(340, 440)).isEqualTo(0);
    assertThat(wakePair(360, 360)).isEqualTo(1); // util_avg summing past the threshold
  }

  /**
   * Where a task forked by CPU 0's current task goes: CPU 0 runs {@code others} more tasks and has
   * {@code util0}, CPU 1 is idle.
   */
  private static int fork(int others, long util0, long threshold) {
    return fork("sched.vcpu_pack_fork_util", others, util0, threshold);
  }

  private static int fork(String param, int others, long util0, long threshold) {
    FakeServices s = new FakeServices(2, 2);
    s.params.put(param, threshold);
    FairClass fair = new FairClass();
    new FakeEngine(fair, s);
    s.rq(0).curr = FakeTask.normal(10);
    s.rq(0).nrRunning = 1 + others;
    fair.rq(0).avg.utilAvg = util0;
    FakeTask child = FakeTask.normal(1);
    child.cpu = 0;
    return fair.selectCpu(child, 0, 0, SchedFlags.WF_FORK);
  }

  @Test
  void mainlineForksOntoTheIdleCpu() {
    assertThat(fork(0, 50, 0)).isEqualTo(1);
  }

  @Test
  void aParentAloneWithRoomKeepsItsChild() {
    assertThat(fork(0, 50, THRESHOLD)).isEqualTo(0);
    assertThat(fork(0, THRESHOLD - 1, THRESHOLD)).isEqualTo(0);
  }

  @Test
  void aParentWithoutRoomOrNotAloneForksAsMainline() {
    assertThat(fork(0, THRESHOLD, THRESHOLD)).isEqualTo(1);
    assertThat(fork(1, 50, THRESHOLD)).isEqualTo(1); // another task queued beside the parent
  }

  @Test
  void aTaskStartedWithoutParentCountsEveryTaskOnItsCpu() {
    assertThat(start(0)).isEqualTo(0); // CPU 0 idle: nothing besides a parent
    assertThat(start(1)).isEqualTo(1); // one task queued there: mainline takes the idle CPU 1
  }

  /** Where a task the scenario starts from CPU 0 goes (no parent: CPU 0's current is idle). */
  private static int start(int queued) {
    FakeServices s = new FakeServices(2, 2);
    s.params.put("sched.vcpu_pack_fork_util", THRESHOLD);
    FairClass fair = new FairClass();
    new FakeEngine(fair, s);
    s.rq(0).nrRunning = queued;
    FakeTask task = FakeTask.normal(1);
    task.cpu = 0;
    return fair.selectCpu(task, 0, 0, SchedFlags.WF_FORK);
  }

  @Test
  void theWakeupThresholdAloneLeavesForksAsMainline() {
    assertThat(fork("sched.vcpu_pack_util", 0, 50, THRESHOLD)).isEqualTo(1);
  }
}
