package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.hook.NohzControl;
import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** nohz idle load balancing (section 1.10) on a 4-vCPU guest whose idle is HLT (real IPIs). */
class NohzBalanceTest {

  @Test
  void tickStopSetsNeedsUpdateAndTheNextBusyTickSendsOneNextKickToTheFirstIdleCpu() {
    Kernel k =
        TestRun.run()
            .duration(100 * MS)
            .kvm4vcpu()
            .tasks(task("busy").cpus("0").program(user(100 * MS)))
            .kernel();
    k.run(900_000);
    assertThat(k.nohz.nrCpus()).as("CPUs 1-3 stopped their ticks").isEqualTo(3);
    assertThat(k.nohz.needsUpdate()).isTrue();
    assertThat(TestKernels.counter(k, "nohz.kicks")).isZero();

    k.run(1_005_000); // CPU 0's busy tick at 1 ms, handled 250 ns later
    assertThat(TestKernels.counter(k, "nohz.kicks")).isEqualTo(1);
    assertThat(TestKernels.counter(k, "nohz.kick_flags.next")).isEqualTo(1);
    assertThat(k.cpus[1].nohzFlags & NohzControl.NEXT_KICK).as("kick_ilb picked CPU 1").isNotZero();
    assertThat(TestKernels.counter(k, "ipi.sent.ilb_kick")).as("HLT: a real IPI").isEqualTo(1);

    k.run(1_900_000); // the ILB ran _nohz_idle_balance(NEXT): needs_update is clear, no new kick
    assertThat(k.nohz.needsUpdate()).isFalse();
    assertThat(TestKernels.counter(k, "nohz.idle_balance_runs")).isEqualTo(1);
    k.run(2_500_000);
    assertThat(TestKernels.counter(k, "nohz.kicks")).isEqualTo(1);
  }

  private static TestRun fourHogs() {
    return TestRun.run()
        .duration(50 * MS)
        .cpus(1, 4, 1)
        .idleStates("hlt-only")
        .tasks(task("hog").count(4).program(user(50 * MS)));
  }

  /** All four hogs are moved onto CPU 0 before they first run; returns the kernel. */
  private static Kernel overloadCpu0(boolean newidleCanRun) {
    Kernel k = fourHogs().kernel();
    k.run(0);
    for (int c = 1; c < 4; c++) {
      Task t = k.cpus[c].queuedHead;
      k.balancer.migrate(t, k.cpus[c], k.cpus[0]);
      if (!newidleCanRun) {
        k.cpus[c].avgIdle = 0;
        k.cpus[c].domains[0].maxNewidleLbCost = 1_000;
      }
    }
    assertThat(k.cpus[0].nrRunning).isEqualTo(4);
    return k;
  }

  @Test
  void newidleBalancePullsQueuedTasksOntoIdleCpusOfTheLlc() {
    Kernel k = overloadCpu0(true);
    k.run(1_000_000);
    for (Cpu c : k.cpus) {
      assertThat(c.nrRunning).as("cpu %d", c.id).isEqualTo(1);
    }
    assertThat(TestKernels.counter(k, "lb.newidle_pulls")).isEqualTo(3);
  }

  @Test
  void newidleIsSkippedWhenAvgIdleIsBelowTheDomainCostAndNohzBalancingSpreadsInstead() {
    Kernel k = overloadCpu0(false);
    k.run(900_000);
    assertThat(TestKernels.counter(k, "lb.newidle_balance_walks")).isZero();
    assertThat(k.cpus[0].nrRunning).isEqualTo(4);
    // CPU 0's busy tick sees nr_running >= 2 and kicks a BALANCE ILB.
    k.run(5_000_000);
    assertThat(TestKernels.counter(k, "nohz.kick_flags.balance")).isPositive();
    for (Cpu c : k.cpus) {
      assertThat(c.nrRunning).as("cpu %d", c.id).isEqualTo(1);
    }
  }

  /**
   * avg_idle 100 us on the idle CPUs: above every domain's cost, below sysctl_sched_migration_cost.
   */
  private static long newidleWalksWithAvgIdle100us(boolean v4Gate) {
    Kernel k = fourHogs().feature(Param.NEWIDLE_MIGRATION_COST_GATE, v4Gate).kernel();
    k.run(0);
    for (int c = 1; c < 4; c++) {
      k.balancer.migrate(k.cpus[c].queuedHead, k.cpus[c], k.cpus[0]);
      k.cpus[c].avgIdle = 100_000;
    }
    k.run(900_000);
    return TestKernels.counter(k, "lb.newidle_balance_walks");
  }

  @Test
  void beforeV516NewidleIsSkippedWhileAvgIdleIsBelowTheMigrationCost() {
    assertThat(newidleWalksWithAvgIdle100us(false))
        .as("v5.16+: only the domain-cost gate")
        .isPositive();
    assertThat(newidleWalksWithAvgIdle100us(true)).as("v4.17: avg_idle < 500 us skips it").isZero();
  }

  @Test
  void schedDomainsFollowTheTopologyAndSdInit() {
    Kernel k = TestRun.run().kernel(); // small-x86
    SchedDomain[] d = k.cpus[0].domains;
    assertThat(d).extracting(sd -> sd.name).containsExactly("SMT", "MC");
    assertThat(d[0].weight).isEqualTo(2);
    assertThat(d[0].imbalancePct).isEqualTo(110);
    assertThat(d[1].weight).isEqualTo(8);
    assertThat(d[1].groups).hasSize(4);
    assertThat(d[1].balanceIntervalMs).isEqualTo(8);
    assertThat(d[1].maxIntervalMs).isEqualTo(16);
    // busy: 8 ms x busy_factor 16 = 128 jiffies, below max_load_balance_interval = HZ*8/10 = 800
    assertThat(k.balancer.intervalJiffies(d[1], true)).isEqualTo(128);
  }
}
