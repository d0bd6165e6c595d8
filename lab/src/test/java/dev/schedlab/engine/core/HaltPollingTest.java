package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * KVM halt polling on the host of a guest vCPU: the poll window grows while halts are shorter than
 * kvm.halt_poll_ns, then catches the wakeups; halts longer than that reset it.
 */
class HaltPollingTest {
  private static final String GUEST =
      String.join(
          "\n",
          "duration: 20ms",
          "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: hlt-only,"
              + " virtualized: true}",
          "kernel: {params: {cost.jitter_pct: 0, kvm.halt_poll_ns: %s}}",
          "workload: {tasks: [{name: t, program: [{sleep: %s}, {user: 1us}]}]}",
          "");

  private static Kernel run(String sleep, String maxPoll) {
    Kernel k = TestKernels.kernel(String.format(GUEST, maxPoll, sleep));
    k.run(20_000_000);
    return k;
  }

  @Test
  void shortHaltsGrowTheWindowUntilPollingCatchesThem() {
    Kernel k = run("100us", "200us");
    long waited = TestKernels.counter(k, "kvm.halt_wait");
    long polled = TestKernels.counter(k, "kvm.halt_poll_success");
    // Windows of 0, 10, 20, 40 and 80 us miss a ~97 us halt; from 160 us on every halt is caught.
    assertThat(waited).isEqualTo(5);
    assertThat(polled).isEqualTo(TestKernels.counter(k, "sched.wakeups") - waited);
    assertThat(k.cpus[0].haltPollNs).isEqualTo(160_000);
  }

  @Test
  void haltsLongerThanTheMaximumResetTheWindow() {
    Kernel k = run("300us", "200us");
    assertThat(TestKernels.counter(k, "kvm.halt_poll_success")).isZero();
    assertThat(k.cpus[0].haltPollNs).isZero();
  }

  @Test
  void pollingShortensTheWakeupByTheSchedulerTripItSaves() {
    Kernel polling = run("100us", "200us");
    Kernel blocking = run("100us", "0ns");
    assertThat(TestKernels.counter(blocking, "kvm.halt_poll_success")).isZero();
    // Each cycle is shorter by latency.vm_halted_wake - latency.vm_halt_poll_wake, so more fit.
    assertThat(TestKernels.counter(polling, "sched.wakeups"))
        .isGreaterThan(TestKernels.counter(blocking, "sched.wakeups"));
  }
}
