package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.lab.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Hooks H16-H18 (placement, balance decision, PELT): no-ops keep the digest, others act. */
class FairHooksTest {
  private static final SelectTaskRqHook SAME_CPU = (p, prev, waker, flags, selected) -> selected;
  private static final LoadBalanceHook SAME_IMBALANCE =
      (dst, sd, idle, local, busiest, type, imbalance) -> imbalance;
  private static final PeltHook SAME_UTIL_EST = (p, ewma, dq, runnable, cap, mainline) -> mainline;

  private static Kernel run(Scenario s, Extensions ext, long ns) {
    Kernel k = TestKernels.kernel(s, ext);
    k.run(ns);
    return k;
  }

  @Test
  void noOpHooksKeepTheDigest() throws Exception {
    // quickstart: wakeups, forks, balancing and PELT on 8 CPUs; hackbench: wake_wide and load.
    for (String file :
        new String[] {"../examples/quickstart.yaml", "../scenarios/hackbench.yaml"}) {
      Scenario s = TestKernels.scenario(Files.readString(Path.of(file)));
      Kernel a = run(s, TestKernels.builtins(), 200_000_000L);
      Kernel b =
          run(
              s,
              TestKernels.builtins().withFairHooks(SAME_CPU, SAME_IMBALANCE, SAME_UTIL_EST),
              200_000_000L);
      assertThat(a.events()).isGreaterThan(10_000);
      assertThat(b.digest()).as(file).isEqualTo(a.digest());
    }
  }

  private static final String TWO_CPU_HOGS =
      String.join(
          "\n",
          "duration: 1s",
          "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
          "workload:",
          "  tasks:",
          "    - {name: heavy, nice: -10, program: [{user: 1s}]}",
          "    - {name: light, count: 4, start: 1ms, program: [{user: 1s}]}",
          "");

  @Test
  void aBalanceHookThatFindsEverythingBalancedStopsMigrations() {
    Scenario s = TestKernels.scenario(TWO_CPU_HOGS);
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
    Scenario s = TestKernels.scenario(TWO_CPU_HOGS);
    Kernel k =
        run(
            s,
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
    Scenario s =
        TestKernels.scenario(
            String.join(
                "\n",
                "duration: 1s",
                "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}",
                "workload:",
                "  tasks:",
                "    - {name: t, program: [{user: 3ms}, {sleep: 7ms}]}",
                ""));
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
