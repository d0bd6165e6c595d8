package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.engine.params.Param;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * KVM halt polling on the host of a guest vCPU: the poll window grows while halts are shorter than
 * kvm.halt_poll_ns, then catches the wakeups; halts longer than that reset it. A host wakeup it
 * misses takes latency.vm_halted_wake, drawn around it when the host's spread is measured.
 */
class HaltPollingTest {
  /** A one-vCPU guest whose task sleeps {@code sleepNs}, then runs 1 us. */
  private static Kernel run(long sleepNs, long maxPollNs) {
    Kernel k =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 1, 1)
            .idleStates("hlt-only")
            .virtualized(true)
            .noJitter()
            .param(Param.KVM_HALT_POLL_NS, maxPollNs)
            .tasks(task("t").program(sleep(sleepNs), user(US)))
            .kernel();
    k.run(20_000_000);
    return k;
  }

  @Test
  void shortHaltsGrowTheWindowUntilPollingCatchesThem() {
    Kernel k = run(100 * US, 200 * US);
    long waited = TestKernels.counter(k, "kvm.halt_wait");
    long polled = TestKernels.counter(k, "kvm.halt_poll_success");
    // Windows of 0, 10, 20, 40 and 80 us miss a ~97 us halt; from 160 us on every halt is caught.
    assertThat(waited).isEqualTo(5);
    assertThat(polled).isEqualTo(TestKernels.counter(k, "sched.wakeups") - waited);
    assertThat(k.cpus[0].haltPollNs).isEqualTo(160_000);
  }

  @Test
  void haltsLongerThanTheMaximumResetTheWindow() {
    Kernel k = run(300 * US, 200 * US);
    assertThat(TestKernels.counter(k, "kvm.halt_poll_success")).isZero();
    assertThat(k.cpus[0].haltPollNs).isZero();
  }

  @Test
  void pollingShortensTheWakeupByTheSchedulerTripItSaves() {
    Kernel polling = run(100 * US, 200 * US);
    Kernel blocking = run(100 * US, 0);
    assertThat(TestKernels.counter(blocking, "kvm.halt_poll_success")).isZero();
    // Each cycle is shorter by latency.vm_halted_wake - latency.vm_halt_poll_wake, so more fit.
    assertThat(TestKernels.counter(polling, "sched.wakeups"))
        .isGreaterThan(TestKernels.counter(blocking, "sched.wakeups"));
  }

  /** A guest with the host's wake spread set (zero: none), its halt polling seeded with 7. */
  private static HaltPolling hostWith(long below10, long above90, long above99) {
    Kernel k =
        TestRun.run()
            .duration(MS)
            .cpus(1, 1, 1)
            .idleStates("hlt-only")
            .virtualized(true)
            .param(Param.VM_HALTED_WAKE, 50 * US)
            .param(Param.VM_HALTED_WAKE_SPREAD_P10, below10)
            .param(Param.VM_HALTED_WAKE_SPREAD_P90, above90)
            .param(Param.VM_HALTED_WAKE_SPREAD_P99, above99)
            .tasks(task("t").program(user(US)))
            .kernel();
    HaltPolling h = new HaltPolling(k);
    h.seed(7);
    return h;
  }

  /** 20 000 wakeups after 1 ms halts (beyond any poll window), sorted. */
  private static long[] wakes(HaltPolling h) {
    Kernel k = TestRun.run().cpus(1, 1, 1).virtualized(true).kernel();
    long[] v = new long[20_000];
    for (int i = 0; i < v.length; i++) {
      v[i] = h.wake(k.cpus[0], MS);
    }
    Arrays.sort(v);
    return v;
  }

  @Test
  void theHostsQuantilesAreInterpolatedWithoutGoingBeyondThe99th() {
    HaltPolling h = hostWith(7 * US, 4 * US, 170 * US);
    assertThat(h.hostWake(0.05)).isEqualTo(43 * US);
    assertThat(h.hostWake(0.3)).isEqualTo(46_500);
    assertThat(h.hostWake(0.5)).isEqualTo(50 * US);
    assertThat(h.hostWake(0.9)).isEqualTo(54 * US);
    assertThat(h.hostWake(0.945)).isEqualTo(137 * US);
    assertThat(h.hostWake(0.999)).isEqualTo(220 * US);
  }

  @Test
  void drawnWakeupsHaveTheMeasuredQuantiles() {
    long[] v = wakes(hostWith(7 * US, 4 * US, 170 * US));
    // The share of draws at or below each measured quantile, within sampling error of 20 000.
    assertThat(shareAtMost(v, 43 * US)).isCloseTo(0.10, within(0.01));
    assertThat(shareAtMost(v, 50 * US)).isCloseTo(0.50, within(0.015));
    assertThat(shareAtMost(v, 54 * US)).isCloseTo(0.90, within(0.01));
    assertThat(shareAtMost(v, 220 * US - 1)).isCloseTo(0.99, within(0.003));
    assertThat(v[v.length - 1]).isEqualTo(220 * US);
  }

  private static double shareAtMost(long[] sorted, long ns) {
    int n = 0;
    while (n < sorted.length && sorted[n] <= ns) {
      n++;
    }
    return (double) n / sorted.length;
  }

  @Test
  void withoutASpreadEveryHostWakeupTakesTheMedian() {
    long[] v = wakes(hostWith(0, 0, 0));
    assertThat(v[0]).isEqualTo(50 * US);
    assertThat(v[v.length - 1]).isEqualTo(50 * US);
  }

  @Test
  void theSameSeedDrawsTheSameWakeups() {
    assertThat(wakes(hostWith(7 * US, 4 * US, 170 * US)))
        .isEqualTo(wakes(hostWith(7 * US, 4 * US, 170 * US)));
  }
}
