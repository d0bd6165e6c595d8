package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * v4.17's {@code load_balance()} ({@code feature.LB_AVG_LOAD}, {@link LoadBalance417}) against
 * v6.12's on the same runqueues: hogs run pinned until their PELT load has settled at their weight,
 * then the test widens some affinities and runs one balancing pass of CPU 1.
 */
class LoadBalance417Test {
  /**
   * Two single-thread cores with an LLC each (one PKG level of two one-CPU groups); no task is
   * cache hot, so only the arithmetic decides.
   */
  private static TestRun twoCpus(boolean v417) {
    return TestRun.run()
        .cpus(1, 2, 1)
        .coresPerLlc(1)
        .idleStates("poll-only")
        .param(Param.MIGRATION_COST, 0)
        .feature(Param.LB_AVG_LOAD, v417);
  }

  private static List<Task> on(Kernel k, int cpu) {
    return k.tasks.stream()
        .filter(t -> t.cpu == cpu && !t.kthread && !t.idleTask)
        .collect(Collectors.toList());
  }

  private static void allow(Task t, int... cpus) {
    t.allowed = (java.util.BitSet) t.allowed.clone(); // tasks of one group share their mask
    for (int c : cpus) {
      t.allowed.set(c);
    }
    t.nrAllowed = t.allowed.cardinality();
  }

  private static SchedDomain pkg(Kernel k, int cpu) {
    SchedDomain[] d = k.cpus[cpu].domains;
    return d[d.length - 1];
  }

  /** Four nice-0 hogs on CPU 0, CPU 1 idle; then they may run anywhere and CPU 1 balances once. */
  private static int movedFromFourHogs(boolean v417) {
    Kernel k =
        twoCpus(v417).tasks(task("hog").count(4).cpus("0").startOn(0).program(user(S))).kernel();
    k.run(300 * MS);
    for (Task t : on(k, 0)) {
      allow(t, 1);
    }
    pkg(k, 1).nrBalanceFailed = 0; // a first try: the pinned run's failed passes forgotten
    k.balancer.balanceRq(k.cpus[1], pkg(k, 1), LoadBalancer.CPU_IDLE);
    return on(k, 1).size();
  }

  @Test
  void anIdleCpuPullsHalfTheLoadByAvgLoadWhereV612PullsByUtil() {
    // v4.17: avg_load 2048 per CPU, imbalance min(4096 - 2048, 2048 - 0) = two tasks' load.
    assertThat(movedFromFourHogs(true)).isEqualTo(2);
    // v6.12: an idle local group beyond the LLC asks for its spare capacity (migrate_util); each
    // hog's util is about a quarter of the CPU, so it pulls until one task is left.
    assertThat(movedFromFourHogs(false)).isEqualTo(3);
  }

  /**
   * Two nice-0 hogs on CPU 0, one nice-1 hog on CPU 1 (load 820); CPU 1 balances while busy. The
   * imbalance, min(2048 - 1434, 1434 - 820) = 614, is below one task's load (1024).
   */
  private static Kernel twoBesideOne(boolean v417) {
    Kernel k =
        twoCpus(v417)
            .tasks(
                task("two").count(2).cpus("0").startOn(0).program(user(S)),
                task("one").nice(1).cpus("1").startOn(1).program(user(S)))
            .kernel();
    k.run(300 * MS);
    for (Task t : on(k, 0)) {
      allow(t, 1);
    }
    pkg(k, 1).nrBalanceFailed = 0; // a first try: the pinned run's failed passes forgotten
    k.balancer.balanceRq(k.cpus[1], pkg(k, 1), LoadBalancer.CPU_NOT_IDLE);
    return k;
  }

  @Test
  void fixSmallImbalanceMovesOneTaskWhenTheImbalanceIsBelowATasksLoad() {
    Kernel v417 = twoBesideOne(true);
    // fix_small_imbalance(): busiest avg_load + one task (3072) >= local avg_load + one task
    // (1844): the imbalance becomes one task's load, and one hog moves.
    assertThat(on(v417, 1)).hasSize(2);
    assertThat(on(v417, 0)).hasSize(1);
    // v6.12 keeps the imbalance of 614: a task of load 1024 is too big to move on a first try.
    Kernel v612 = twoBesideOne(false);
    assertThat(on(v612, 1)).hasSize(1);
    assertThat(on(v612, 0)).hasSize(2);
  }

  @Test
  void aPinnedTaskIsSkippedAndTheNextOneMoves() {
    Kernel k =
        twoCpus(true).tasks(task("hog").count(3).cpus("0").startOn(0).program(user(S))).kernel();
    k.run(300 * MS);
    Cpu src = k.cpus[0];
    Task queuedFirst = src.queuedHead;
    assertThat(queuedFirst).isNotNull();
    Task free = null;
    for (Task t = queuedFirst.rqNext; t != null; t = t.rqNext) {
      if (t != src.curr) {
        free = t;
      }
    }
    assertThat(free).isNotNull();
    allow(free, 1); // the first queued task stays pinned to CPU 0
    k.balancer.balanceRq(k.cpus[1], pkg(k, 1), LoadBalancer.CPU_IDLE);
    assertThat(free.cpu).isEqualTo(1);
    assertThat(queuedFirst.cpu).isZero();
    assertThat(on(k, 0)).hasSize(2);
  }

  @Test
  void whenEveryTaskIsPinnedNothingMovesAndTheParentGroupIsMarkedImbalanced() {
    // Two LLCs of two cores: MC {0,1} {2,3} under PKG. CPU 1's MC pass finds CPU 0 busiest, but
    // its tasks are pinned there (LBF_ALL_PINNED): CPU 0 is left out, nothing else is busier,
    // and the PKG level's group {0,1} is marked imbalanced (LBF_SOME_PINNED).
    Kernel k =
        TestRun.run()
            .cpus(1, 4, 1)
            .coresPerLlc(2)
            .idleStates("poll-only")
            .param(Param.MIGRATION_COST, 0)
            .feature(Param.LB_AVG_LOAD, true)
            .tasks(task("hog").count(3).cpus("0").startOn(0).program(user(S)))
            .kernel();
    k.run(300 * MS);
    SchedDomain mc = k.cpus[1].domains[0];
    SchedDomain pkg = k.cpus[1].domains[1];
    assertThat(mc.name).isEqualTo("MC");
    GroupCapacity parentGroup = pkg.groupCaps[pkg.groupOf(1)];
    parentGroup.imbalance = false;
    mc.balanceIntervalMs = mc.minIntervalMs;
    boolean moved = k.balancer.balanceRq(k.cpus[1], mc, LoadBalancer.CPU_IDLE);
    assertThat(moved).isFalse();
    assertThat(on(k, 0)).hasSize(3);
    assertThat(parentGroup.imbalance).isTrue();
    assertThat(mc.balanceIntervalMs).isEqualTo(2 * mc.minIntervalMs);
    assertThat(mc.nrBalanceFailed).isZero();
  }
}
