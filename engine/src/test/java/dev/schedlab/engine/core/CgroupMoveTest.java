package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** A running task writing itself into another cgroup: {@code sched_move_task()}. */
class CgroupMoveTest {
  /** t computes 1 ms, then (with {@code move}) joins "capped" (2 ms per 10 ms), then 20 ms more. */
  private static long done(boolean move) {
    StepSpec join = move ? new StepSpec.Cgroup("capped") : new StepSpec.Mark("stay");
    Kernel k =
        TestRun.run()
            .duration(200 * MS)
            .cpus(1, 1, 1)
            .idleStates("poll-only")
            .noJitter()
            .cgroup("capped", 100, 2 * MS, 10 * MS)
            .tasks(
                task("t")
                    .program(user(MS), join, user(20 * MS), new StepSpec.Clock("done"), exit()))
            .kernel();
    k.run(200 * MS);
    long[] v = k.metrics.rawSamples().get("clock/t/done");
    assertThat(v).hasSize(1);
    return v[0];
  }

  @Test
  void aTaskThatJoinsACappedGroupRunsAtItsQuota() {
    // 20 ms of work at 2 ms per 10 ms period takes about 100 ms; in the root group 20 ms.
    assertThat(done(false)).isLessThan(23 * MS);
    assertThat(done(true)).isBetween(90 * MS, 115 * MS);
  }

  /** t writes itself into "a", then after {@code gapNs} into "b"; the two writes' durations. */
  private static long[] writes(long gapNs) {
    return writes(gapNs, -1);
  }

  /** The same with {@code rcu.normal_wake_from_gp} at {@code wakeFromGp} (-1: the default). */
  private static long[] writes(long gapNs, long wakeFromGp) {
    StepSpec gap = gapNs > 0 ? new StepSpec.Sleep(Dist.fixed(gapNs), null) : new StepSpec.Mark("x");
    TestRun run = TestRun.run().duration(500 * MS).cpus(1, 2, 1).idleStates("poll-only").noJitter();
    if (wakeFromGp >= 0) {
      run.param(Param.RCU_NORMAL_WAKE_FROM_GP, wakeFromGp);
    }
    Kernel k =
        run.cgroup("a")
            .cgroup("b")
            .tasks(
                task("t")
                    .program(
                        user(MS),
                        new StepSpec.Clock("c"),
                        new StepSpec.Cgroup("a"),
                        new StepSpec.Clock("c"),
                        gap,
                        new StepSpec.Clock("c"),
                        new StepSpec.Cgroup("b"),
                        new StepSpec.Clock("c"),
                        exit()))
            .kernel();
    k.run(500 * MS);
    long[] c = k.metrics.rawSamples().get("clock/t/c");
    assertThat(c).hasSize(4);
    return new long[] {c[1] - c[0], c[3] - c[2]};
  }

  @Test
  void aLoneCgroupWriteWaitsAGracePeriodAndOneRightAfterItDoesNot() {
    // cgroup_threadgroup_rwsem's rcu_sync: idle, the first write waits for a grace period (ticks
    // of both CPUs); entered or with its exit's grace period pending, the next passes at once
    long[] close = writes(0);
    assertThat(close[0]).isGreaterThan(2 * MS);
    assertThat(close[1]).isLessThan(50_000);
    // 100 ms later the rcu_sync is idle again: another grace period
    long[] apart = writes(100 * MS);
    assertThat(apart[0]).isGreaterThan(2 * MS);
    assertThat(apart[1]).isGreaterThan(2 * MS);
  }

  @Test
  void aLoneWriteIsWokenByTheGracePeriodsCleanupNotByACallback() {
    // rcu_normal_wake_from_gp, on for up to 16 CPUs: synchronize_rcu() asks for its grace period
    // at once and the kthread's cleanup wakes the writer, at the first scan
    // (jiffies_till_first_fqs,
    // 3 at HZ 1000, and the timer wheel's jiffy after the write at 1 ms), both CPUs idle then
    long fromGp = writes(0)[0];
    assertThat(fromGp).isBetween(3 * MS, 4 * MS + 100_000);
    // Without it the write waits for a callback: requested at the next tick, invoked in
    // RCU_SOFTIRQ at a tick after the grace period
    long viaCallback = writes(0, 0)[0];
    assertThat(viaCallback).isGreaterThan(fromGp + MS / 2);
  }
}
