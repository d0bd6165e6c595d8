package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.Steps.wake;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** select_task_rq_fair(): where wakeups and new tasks go, against the kernel's known behaviour. */
class PlacementTest {
  /** A pipe-like pair (each wakes the other with WF_SYNC, then blocks) on a 2-CPU machine. */
  private static Kernel pair(boolean sync, TestRun.Task... others) {
    return TestRun.run()
        .duration(200 * MS)
        .cpus(1, 2, 1)
        .idleStates("poll-only")
        .tasks(others)
        .tasks(
            task("a").program(user(20 * US), wake("ab", sync), block("ba")),
            task("b").program(block("ab"), user(20 * US), wake("ba", sync)))
        .kernel();
  }

  private static TestRun.Task hogOnCpu1() {
    return task("hog").cpus("1").program(user(10 * MS));
  }

  /** Fraction of 1 ms samples after the first 20 ms at which tasks a and b sit on one CPU. */
  private static double together(Kernel k) {
    Task a = k.tasks.stream().filter(t -> t.comm.equals("a")).findFirst().orElseThrow();
    Task b = k.tasks.stream().filter(t -> t.comm.equals("b")).findFirst().orElseThrow();
    int same = 0;
    int n = 0;
    for (long ms = 20; ms < 200; ms++) {
      k.run(ms * 1_000_000L);
      same += a.cpu == b.cpu ? 1 : 0;
      n++;
    }
    return (double) same / n;
  }

  @Test
  void aSyncPairStaysOnTheWakersCpuWhenTheOtherCpuIsBusy() {
    // wake_affine_idle(): the waker is its CPU's only task and the wakeup is WF_SYNC, so the
    // waker's CPU is the target; prev (CPU 1, the hog's) is not idle and no CPU is: both stay.
    Kernel k = pair(true, hogOnCpu1());
    assertThat(together(k)).isGreaterThan(0.95);
    assertThat(k.tasks.get(1).cpu).isZero();
  }

  @Test
  void aSyncPairSpreadsWhenThePrevCpuIsIdle() {
    // select_idle_sibling(): an idle prev sharing the cache beats the busy waker's CPU, so a
    // pipe pair on an otherwise idle machine runs on two CPUs.
    Kernel k = pair(true);
    assertThat(together(k)).isLessThan(0.05);
  }

  @Test
  void newTasksAreSpreadOverIdleCpusAtFork() {
    // sched_balance_find_dst_cpu(): each new task goes to the idlest group, down to an idle CPU.
    Kernel k =
        TestRun.run()
            .duration(10 * MS)
            .cpus(2, 2, 2)
            .idleStates("poll-only")
            .tasks(task("hog").count(4).program(user(10 * MS)))
            .kernel();
    k.run(1_000_000L);
    java.util.Set<Integer> cores = new java.util.HashSet<>();
    java.util.Set<Integer> pkgs = new java.util.HashSet<>();
    for (Task t : k.tasks) {
      cores.add(k.cpus[t.cpu].coreId);
      pkgs.add(k.cpus[t.cpu].pkgId);
    }
    assertThat(cores).hasSize(4); // one per core: idle cores first (no SMT sibling shared)
    assertThat(pkgs).hasSize(2);
  }
}
