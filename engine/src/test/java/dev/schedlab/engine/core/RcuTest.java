package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.S;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.api.DeferKind;
import org.junit.jupiter.api.Test;

/** Tree RCU: the tick an idle CPU keeps for its callbacks, RCU_SOFTIRQ per tick, grace periods. */
class RcuTest {
  /** When the callback ran, and CPU 0's tick count then; -1 until it runs. */
  private final long[] ran = {-1, -1};

  /** Two CPUs halting in idle, {@code tasks} on them; a callback queued on CPU 0 at 1 ms. */
  private Kernel run(boolean callback, TestRun.Task... tasks) {
    Kernel k = TestRun.run().duration(S).cpus(1, 2, 1).idleStates("hlt-only").tasks(tasks).kernel();
    k.run(MS);
    if (callback) {
      k.thisCpu = 0;
      k.services.defer(
          DeferKind.RCU_CALLBACK,
          null,
          0,
          1_000,
          0,
          cpu -> {
            ran[0] = k.now;
            ran[1] = k.cpus[0].ticks;
          });
    }
    k.run(S);
    return k;
  }

  /** Runs 2 ms on CPU 0 (HZ 1000: two ticks), then sleeps. */
  private static TestRun.Task shortTask() {
    return task("short").cpus("0").program(user(2 * MS), sleep(10 * S));
  }

  @Test
  void anIdleCpuWithACallbackKeepsItsTickUntilTheCallbackRunsThenStopsIt() {
    Kernel without = run(false, shortTask());
    long busyTicks = without.cpus[0].ticks;
    assertThat(busyTicks).as("idle from 2 ms: the tick stops at once").isBetween(1L, 2L);

    Kernel k = run(true, shortTask());
    long tick = k.tickNs;
    assertThat(ran[0]).as("after a grace period of a few ticks").isBetween(4 * tick, 8 * tick);
    // Idle from 2 ms, CPU 0 took every tick until the callback ran in one's softirq ...
    assertThat(ran[1]).isEqualTo(busyTicks + (ran[0] - 2 * MS) / tick);
    // ... and none after it.
    assertThat(k.cpus[0].ticks).isEqualTo(ran[1]);
    assertThat(k.cpus[1].ticks)
        .as("the other CPU has no callback: its tick stays stopped")
        .isZero();
  }

  @Test
  void aBusyCpuRaisesRcuSoftirqEachTickUntilItReportsItsQuiescentState() {
    TestRun.Task spin = task("spin").count(2).program(user(2 * S));
    Kernel k = run(true, spin);
    assertThat(TestKernels.counter(k, "rcu.grace_periods")).isEqualTo(1);
    // CPU 0: the tick that requests the grace period (the kthread, woken there, notes it for CPU 0
    // and its switch away is CPU 0's quiescent state), the next that reports it, and the one that
    // notes the end and invokes the callback. CPU 1: notes it, reports last (the kthread, woken
    // there, notes the end for CPU 1). Five, as a traced grace period of two busy CPUs on
    // Linux 6.18 (docs/model.md, RCU). Nothing after.
    assertThat(TestKernels.counter(k, "softirq.rcu")).isEqualTo(5);
    assertThat(ran[0]).isBetween(3 * k.tickNs, 5 * k.tickNs);
  }

  @Test
  void anIdleCpuIsReportedByTheForceQuiescentStateScanWithoutATick() {
    Kernel k = run(true, task("spin").cpus("0").program(user(2 * S)));
    assertThat(k.cpus[1].ticks).as("idle throughout, its tick stopped").isZero();
    assertThat(TestKernels.counter(k, "rcu.grace_periods")).isEqualTo(1);
    // CPU 0 alone: the request, the report (the kthread noted the grace period there), and the
    // invocation once the kthread's cleanup, after its scan found CPU 1 idle, noted the end there.
    assertThat(TestKernels.counter(k, "softirq.rcu")).isEqualTo(3);
    // The scan comes a jiffy after jiffies_till_first_fqs: its timer-wheel timer rounds up.
    assertThat(ran[0]).isBetween(4 * k.tickNs, 6 * k.tickNs);
  }

  @Test
  void noCallbackNoGracePeriodNoSoftirq() {
    Kernel k = run(false, task("spin").count(2).program(user(2 * S)));
    assertThat(k.metrics.snapshot()).doesNotContainKey("rcu.grace_periods");
    assertThat(TestKernels.counter(k, "softirq.rcu")).isZero();
  }
}
