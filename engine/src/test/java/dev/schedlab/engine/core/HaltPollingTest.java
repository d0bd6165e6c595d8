package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.junit.jupiter.api.Test;

/**
 * KVM halt polling on the host of a guest vCPU: the poll window grows while halts are shorter than
 * kvm.halt_poll_ns, then catches the wakeups; halts longer than that reset it.
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
}
