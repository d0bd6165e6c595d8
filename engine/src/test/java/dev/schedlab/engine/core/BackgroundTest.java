package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.block;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.Steps.wake;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/** The host's background: timer-wheel expiries, TIMER_SOFTIRQ, kworker bursts, RCU callbacks. */
class BackgroundTest {
  private static TestRun machine(long ratePerS, long deferrablePermille) {
    return TestRun.run()
        .duration(10 * S)
        .cpus(1, 2, 1)
        .idleStates("hlt-only")
        .param(Param.BG_TIMER_RATE, ratePerS * 1000)
        .param(Param.BG_TIMER_DEFERRABLE, deferrablePermille);
  }

  private static Kernel run(TestRun r) {
    Kernel k = r.kernel();
    k.run(10 * S);
    return k;
  }

  private static TestRun busy(TestRun r) {
    return r.tasks(task("spin").count(2).program(user(20 * S)));
  }

  @Test
  void aBusyCpuRaisesAboutItsRateOfTimerSoftirqsDeferrableOnesIncluded() {
    Kernel k = run(busy(machine(20, 500)));
    long expiries = TestKernels.counter(k, "bg.timer_expiries");
    assertThat(expiries).as("20/s on 2 CPUs for 10 s").isBetween(340L, 460L);
    // A tick (4 ms at HZ 250) rarely finds two timers due: about one softirq each.
    assertThat(TestKernels.counter(k, "softirq.timer")).isBetween(expiries * 9 / 10, expiries);
  }

  @Test
  void anIdleCpuWakesOnlyForItsNonDeferrableTimers() {
    Kernel hard = run(machine(20, 0));
    assertThat(TestKernels.counter(hard, "softirq.timer")).isBetween(340L, 460L);
    Kernel half = run(machine(20, 500));
    // The deferrable half waits for the ticks the other half programs: every timer expires, in
    // about half as many softirqs.
    assertThat(TestKernels.counter(half, "bg.timer_expiries")).isBetween(340L, 460L);
    assertThat(TestKernels.counter(half, "softirq.timer")).isBetween(160L, 240L);
    Kernel deferrable = run(machine(20, 1000));
    assertThat(TestKernels.counter(deferrable, "softirq.timer"))
        .as("nothing wakes the idle CPUs")
        .isZero();
  }

  @Test
  void callbacksWakeTheCpusKworkerAndQueueRcuCallbacks() {
    Kernel k =
        run(machine(20, 0).param(Param.BG_KWORKER_SHARE, 500).param(Param.BG_RCU_CALLBACKS, 1000));
    long expiries = TestKernels.counter(k, "bg.timer_expiries");
    assertThat(TestKernels.counter(k, "deferred.work_items"))
        .isBetween(expiries * 4 / 10, expiries * 6 / 10);
    assertThat(TestKernels.counter(k, "deferred.rcu_callbacks"))
        .as("one each, less those whose grace period outlasts the run")
        .isBetween(expiries - 10, expiries);
    assertThat(TestKernels.counter(k, "softirq.rcu")).isPositive();
  }

  /** perf bench sched pipe, one pair, on two CPUs that poll in idle. */
  private static Kernel pipe(long ratePerS) {
    Kernel k =
        TestRun.run()
            .duration(S / 2)
            .cpus(1, 2, 1)
            .idleStates("poll-only")
            .param(Param.BG_TIMER_RATE, ratePerS * 1000)
            .param(Param.BG_KWORKER_SHARE, 1000)
            .param(Param.BG_KWORKER_BURST, 200 * US)
            .tasks(
                task("a").program(user(5 * US), wake("ab", true), block("ba")),
                task("b").program(block("ab"), user(5 * US), wake("ba", true)))
            .kernel();
    k.run(S / 2);
    return k;
  }

  @Test
  void aKworkerBurstOnTheWakeesCpuSendsThePipePartnerToTheOtherCpu() {
    long quiet = TestKernels.counter(pipe(0), "sched.migrations");
    long background = TestKernels.counter(pipe(100), "sched.migrations");
    assertThat(quiet).as("nothing else runs: the pair keeps its CPUs").isLessThanOrEqualTo(2);
    assertThat(background).isGreaterThan(quiet + 20);
  }

  @Test
  void offChangesNothing() {
    TestRun base = busy(TestRun.run().duration(S).cpus(1, 2, 1).idleStates("hlt-only"));
    Kernel a = base.kernel();
    a.run(S);
    Kernel b =
        busy(TestRun.run()
                .duration(S)
                .cpus(1, 2, 1)
                .idleStates("hlt-only")
                .param(Param.BG_KWORKER_SHARE, 1000)
                .param(Param.BG_RCU_CALLBACKS, 5000)
                .param(Param.BG_KWORKER_BURST, MS))
            .kernel();
    b.run(S);
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.metrics.snapshot()).doesNotContainKey("softirq.timer");
  }
}
