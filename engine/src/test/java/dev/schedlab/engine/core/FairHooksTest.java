package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.engine.plugin.Extensions;
import org.junit.jupiter.api.Test;

/**
 * Hooks H16-H18 (placement, balance decision, PELT): no-ops keep the digest, others act. The no-op
 * check on hackbench's wake_wide and load is the lab's (FairHooksOnHackbenchTest): its workload is
 * a lab tool.
 */
class FairHooksTest {
  private static final SelectTaskRqHook SAME_CPU = (p, prev, waker, flags, selected) -> selected;
  private static final LoadBalanceHook SAME_IMBALANCE =
      (dst, sd, idle, local, busiest, type, imbalance) -> imbalance;
  private static final PeltHook SAME_UTIL_EST = (p, ewma, dq, runnable, cap, mainline) -> mainline;

  private static Kernel run(TestRun r, Extensions ext, long ns) {
    Kernel k = r.kernel(ext);
    k.run(ns);
    return k;
  }

  @Test
  void noOpHooksKeepTheDigest() {
    // quickstart: wakeups, forks, balancing and PELT on 8 CPUs.
    TestRun s = ExampleRuns.quickstart();
    Kernel a = run(s, TestKernels.builtins(), 200_000_000L);
    Kernel b =
        run(
            s,
            TestKernels.builtins().withFairHooks(SAME_CPU, SAME_IMBALANCE, SAME_UTIL_EST),
            200_000_000L);
    assertThat(a.events()).isGreaterThan(10_000);
    assertThat(b.digest()).isEqualTo(a.digest());
  }

  /** A nice -10 hog, then four nice-0 hogs from 1 ms, on two CPUs. */
  private static TestRun twoCpuHogs() {
    return TestRun.run()
        .cpus(1, 2, 1)
        .idleStates("poll-only")
        .tasks(
            task("heavy").nice(-10).program(user(S)),
            task("light").count(4).start(MS).program(user(S)));
  }

  @Test
  void aBalanceHookThatFindsEverythingBalancedStopsMigrations() {
    TestRun s = twoCpuHogs();
    Kernel mainline = run(s, TestKernels.builtins(), 300_000_000L);
    Kernel never =
        run(
            s,
            TestKernels.builtins()
                .withFairHooks(
                    SelectTaskRqHook.MAINLINE,
                    (dst, sd, idle, local, busiest, type, imbalance) -> 0,
                    PeltHook.MAINLINE),
            300_000_000L);
    assertThat(TestKernels.counter(mainline, "lb.migrations")).isPositive();
    assertThat(TestKernels.counter(never, "lb.migrations")).isZero();
    assertThat(never.cpus[0].nrRunning).isEqualTo(4); // the light ones stay beside the heavy one
  }

  @Test
  void aPlacementHookDecidesWhereNewAndWokenTasksGo() {
    // Everything to CPU 0: the four light hogs never reach CPU 1 at fork.
    Kernel k =
        run(
            twoCpuHogs(),
            TestKernels.builtins()
                .withFairHooks(
                    (p, prev, waker, flags, selected) -> 0,
                    (dst, sd, idle, local, busiest, type, imb) -> 0,
                    PeltHook.MAINLINE),
            100_000_000L);
    assertThat(k.cpus[0].nrRunning).isEqualTo(5);
    assertThat(k.cpus[1].nrRunning).isZero();
  }

  @Test
  void aPeltHookSetsUtilEst() {
    TestRun s =
        TestRun.run()
            .cpus(1, 1, 1)
            .idleStates("poll-only")
            .tasks(task("t").program(user(3 * MS), sleep(7 * MS)));
    Kernel mainline = run(s, TestKernels.builtins(), 300_000_000L);
    Kernel capped =
        run(
            s,
            TestKernels.builtins()
                .withFairHooks(
                    SelectTaskRqHook.MAINLINE,
                    LoadBalanceHook.MAINLINE,
                    (p, ewma, dq, runnable, cap, m) -> Math.min(m, 100)),
            300_000_000L);
    assertThat(mainline.tasks.get(0).loadAvg().utilEst()).isGreaterThan(250);
    assertThat(capped.tasks.get(0).loadAvg().utilEst()).isEqualTo(100);
  }
}
