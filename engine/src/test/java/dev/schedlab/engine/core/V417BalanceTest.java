package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * The balancer rules v4.17 had and v5.10-v5.12 changed, as parameters of the table: {@code
 * sd_init()}'s busy_factor and imbalance_pct above the LLC, and active balance after repeated
 * failures for any imbalance ({@code feature.ACTIVE_BALANCE_ON_FAILURES}).
 */
class V417BalanceTest {
  /** Two single-thread cores, each its own LLC: one PKG level that shares no cache. */
  private static TestRun twoLlcs() {
    return TestRun.run().cpus(1, 2, 1).coresPerLlc(1).idleStates("poll-only");
  }

  /**
   * CPU 0 runs a nice -20 hog that may run anywhere; at 100 ms (its util near 1024) two nice 19
   * tasks pinned to CPU 0 join it; CPU 1 idles. CPU 1's balance sees an overloaded group beyond its
   * LLC and asks for util (migrate_util), but nothing queued may move and the hog is always
   * running. Where is the hog at 200 ms?
   */
  private static Kernel pinnedBesideAHog(boolean v417) {
    Kernel k =
        twoLlcs()
            .feature(Param.ACTIVE_BALANCE_ON_FAILURES, v417)
            .tasks(
                task("hog").nice(-20).startOn(0).program(user(S)),
                task("pinned")
                    .count(2)
                    .nice(19)
                    .cpus("0")
                    .startOn(0)
                    .start(100 * MS)
                    .program(user(S)))
            .kernel();
    k.run(200 * MS);
    return k;
  }

  @Test
  void v417PushesTheRunningTaskOnceBalancingKeepsFailing() {
    Kernel k = pinnedBesideAHog(true);
    Task hog = k.tasks.stream().filter(t -> t.comm.equals("hog")).findFirst().orElseThrow();
    assertThat(hog.cpu).isEqualTo(1);
    assertThat(TestKernels.counter(k, "lb.active_pushes")).isEqualTo(1);
  }

  @Test
  void sinceV512OnlySpreadingTasksEndsInAnActiveBalance() {
    Kernel k = pinnedBesideAHog(false);
    Task hog = k.tasks.stream().filter(t -> t.comm.equals("hog")).findFirst().orElseThrow();
    assertThat(hog.cpu).isZero();
    assertThat(TestKernels.counter(k, "lb.active_balances")).isZero();
  }

  @Test
  void sdInitTakesBusyFactorAndImbalancePctAboveTheLlcFromTheTable() {
    Kernel modern = TestRun.run().cpus(2, 4, 2).coresPerLlc(2).kernel();
    SchedDomain[] d = modern.cpus[0].domains;
    assertThat(d).extracting(sd -> sd.name).containsExactly("SMT", "MC", "PKG", "NUMA");
    assertThat(d).extracting(sd -> sd.imbalancePct).containsExactly(110, 117, 117, 125);
    assertThat(d).extracting(sd -> sd.busyFactor).containsOnly(16);

    Kernel v417 =
        TestRun.run()
            .cpus(2, 4, 2)
            .coresPerLlc(2)
            .param(Param.BUSY_FACTOR, 32)
            .param(Param.IMBALANCE_PCT_PKG, 125)
            .kernel();
    SchedDomain[] o = v417.cpus[0].domains;
    assertThat(o).extracting(sd -> sd.imbalancePct).containsExactly(110, 117, 125, 125);
    assertThat(o).extracting(sd -> sd.busyFactor).containsOnly(32);
    // busy PKG (8 CPUs): 8 ms x 32 = 256 jiffies at HZ=1000, twice the v5.10+ interval
    assertThat(v417.balancer.intervalJiffies(o[2], true))
        .isEqualTo(2 * modern.balancer.intervalJiffies(d[2], true));
  }

  @Test
  void aNumaLevelBeyondTheReclaimDistanceLosesForkExecAndWakeAffine() {
    SchedDomain[] near = TestRun.run().cpus(2, 2, 1).kernel().cpus[0].domains;
    assertThat(near).allMatch(sd -> sd.balanceFork() && sd.balanceExec() && sd.wakeAffine());
    SchedDomain[] far =
        TestRun.run()
            .cpus(2, 2, 1)
            .param(Param.NODE_DISTANCE, 40)
            .param(Param.RECLAIM_DISTANCE, 10)
            .kernel()
            .cpus[0]
            .domains;
    SchedDomain numa = far[far.length - 1];
    assertThat(numa.name).isEqualTo("NUMA");
    assertThat(numa.balanceFork() || numa.balanceExec() || numa.wakeAffine()).isFalse();
    assertThat(far[0].balanceFork() && far[0].wakeAffine()).isTrue();
  }
}
