package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.exit;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
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
}
