package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.Steps.wake;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * {@code sd_init()}: a NUMA level farther than {@code node_reclaim_distance} has neither
 * SD_BALANCE_FORK nor SD_WAKE_AFFINE (POWER9: distance 40, powerpc's RECLAIM_DISTANCE 10), so forks
 * and wakeups stay on their node; at the default distances (20 vs 30) both cross it.
 */
class NumaReclaimDistanceTest {
  /** Two nodes of four single-thread cores: node 0 is CPUs 0-3, node 1 CPUs 4-7. */
  private static TestRun machine(boolean far) {
    TestRun run = TestRun.run().cpus(2, 4, 1).idleStates("poll-only").duration(8 * MS);
    if (far) {
      run.param(Param.NODE_DISTANCE, 40).param(Param.RECLAIM_DISTANCE, 10);
    }
    return run;
  }

  private static Task named(Kernel k, String comm) {
    return k.tasks.stream().filter(t -> t.comm.equals(comm)).findFirst().orElseThrow();
  }

  /** Node 0 is busy (the parent and three hogs), node 1 idle; the parent forks a kid at 2 ms. */
  private static Task forkedKid(boolean far) {
    Kernel k =
        machine(far)
            .tasks(
                task("hog").count(3).cpus("1-3").program(user(100 * MS)),
                task("dad")
                    .cpus("0")
                    .program(user(2 * MS), new StepSpec.Fork("kid", "kid", -1), block("never")),
                task("kid").count(0).program(user(100 * MS)))
            .kernel();
    k.run(3 * MS);
    return named(k, "kid");
  }

  @Test
  void aForkCrossesToTheIdleNodeWithinTheReclaimDistance() {
    assertThat(forkedKid(false).cpu).isGreaterThanOrEqualTo(4);
  }

  @Test
  void aForkStaysOnItsNodeBeyondTheReclaimDistance() {
    assertThat(forkedKid(true).cpu).isBetween(0, 3);
  }

  /**
   * A waker pinned to CPU 0 wakes a partner queued at the start on CPU 4 with WF_SYNC, over and
   * over; where does the partner run by 6 ms?
   */
  private static Task wokenPartner(boolean far) {
    Kernel k =
        machine(far)
            .tasks(
                task("waker").cpus("0").program(user(50 * US), wake("ping", true), block("pong")),
                task("partner")
                    .startOn(4)
                    .program(block("ping"), user(10 * US), wake("pong", true)))
            .kernel();
    k.run(6 * MS);
    return named(k, "partner");
  }

  @Test
  void aSyncWakeupPullsTheWakeeToTheWakersNodeWithinTheReclaimDistance() {
    // wake_affine(): the waker's CPU runs only the waker (WF_SYNC), so the target is CPU 0 and
    // select_idle_sibling() finds an idle CPU of its LLC (node 0).
    assertThat(wokenPartner(false).cpu).isBetween(0, 3);
  }

  @Test
  void aWakeupStaysNearPrevBeyondTheReclaimDistance() {
    // No domain with SD_WAKE_AFFINE spans both CPUs: select_idle_sibling(prev, prev) keeps CPU 4.
    assertThat(wokenPartner(true).cpu).isEqualTo(4);
  }
}
