package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * Fork placement before v5.5 ({@code feature.FIND_IDLEST_BY_LOAD}, v4.17's {@code
 * find_idlest_group()} by runnable load and avg_load) against the v5.5+ rework (idle-CPU counts).
 */
class ForkByLoadTest {
  /** The parent, pinned to CPU 0, forks {@code kid} after 6 ms. */
  private static TestRun.Task parent() {
    return task("dad")
        .cpus("0")
        .program(user(6 * MS), new StepSpec.Fork("kid", "kid", -1), block("never"));
  }

  private static TestRun.Task kidTemplate() {
    return task("kid").count(0).program(user(MS), block("never"));
  }

  private static Task kid(Kernel k) {
    return k.tasks.stream().filter(t -> t.comm.equals("kid")).findFirst().orElseThrow();
  }

  /**
   * Two cores of two SMT threads (CPUs 0 and 2 on core 0, 1 and 3 on core 1); a task ran 3 ms on
   * CPU 1 and sleeps, so CPU 1 is the most recently idled CPU of core 1 and holds its blocked load.
   */
  private static Kernel blockedLoadOnCpu1(boolean byLoad) {
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(1, 2, 2)
            .idleStates("poll-only")
            .feature(Param.FIND_IDLEST_BY_LOAD, byLoad)
            .tasks(
                task("sleeper").cpus("1").program(user(3 * MS), block("never")),
                parent(),
                kidTemplate())
            .kernel();
    k.run(9 * MS); // an idle polling sibling slows the parent's 6 ms of work (SMT sharing)
    assertThat(k.cpus[1].coreId).isEqualTo(k.cpus[3].coreId).isNotEqualTo(k.cpus[0].coreId);
    return k;
  }

  @Test
  void beforeV55AForkAvoidsTheCpuHoldingASleepingTasksBlockedLoad() {
    // v4.17: core 1 has no runnable load (core 0 has the parent's), so it is the idlest group;
    // find_idlest_group_cpu() picks its most recently idled CPU, 1, but one level down the
    // SMT group {1} carries the sleeper's blocked load in avg_load and {3} none: the kid goes to 3.
    assertThat(kid(blockedLoadOnCpu1(true)).cpu).isEqualTo(3);
  }

  @Test
  void sinceV55AForkReturnsToTheMostRecentlyIdledCpu() {
    // v5.5+: core 1 has more idle CPUs; its most recently idled CPU is 1, and at the SMT level {1}
    // and {3} tie on idle CPUs, so the local group (1) is kept: blocked load plays no part.
    assertThat(kid(blockedLoadOnCpu1(false)).cpu).isEqualTo(1);
  }

  private static Kernel twoHalves(boolean numa) {
    TestRun run = numa ? TestRun.run().cpus(2, 8, 1) : TestRun.run().cpus(1, 16, 1).coresPerLlc(8);
    Kernel k =
        run.duration(7 * MS)
            .idleStates("poll-only")
            .feature(Param.FIND_IDLEST_BY_LOAD, true)
            .tasks(parent(), kidTemplate())
            .kernel();
    k.run(6_500_000L);
    return k;
  }

  @Test
  void acrossNumaNodesTheLocalNodeIsKeptUnlessTheRemoteIsLighterByTheImbalance() {
    // Two nodes of 8 CPUs: the parent's node has runnable load 1024 x 1024 / 8192 = 128, the
    // other 0; 0 + 174 (imbalance_pct 117) >= 128, so the kid stays on the parent's node.
    Kernel k = twoHalves(true);
    assertThat(k.cpus[kid(k).cpu].pkgId).isEqualTo(k.cpus[0].pkgId);
    assertThat(kid(k).cpu).isNotZero();
  }

  @Test
  void theSameSplitWithinAPackageGoesToTheLighterHalf() {
    // Two LLCs of 8 CPUs in one package (no NUMA rule): the runnable loads 128 and 0 are within
    // the imbalance (174), and the other LLC's avg_load (0) is lower: the kid goes there.
    Kernel k = twoHalves(false);
    assertThat(k.cpus[kid(k).cpu].llcId).isNotEqualTo(k.cpus[0].llcId);
  }
}
