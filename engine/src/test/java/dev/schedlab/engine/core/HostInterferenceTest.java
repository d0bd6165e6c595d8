package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import java.util.function.UnaryOperator;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Time lost outside the modelled kernel: a guest's timer expiry exits to the host and its vector is
 * injected latency.vm_timer_delivery later; measured noise stalls a CPU, which then advances
 * nothing and takes interrupts when the stall ends.
 */
class HostInterferenceTest {
  private static final UnaryOperator<TestRun> QUIET = UnaryOperator.identity();

  /** A one-vCPU guest whose FIFO task wakes every 200 us; {@code host} adds noise. */
  private static Kernel guest(long deliveryNs, UnaryOperator<TestRun> host) {
    Kernel k =
        host.apply(
                TestRun.run()
                    .duration(50 * MS)
                    .cpus(1, 1, 1)
                    .idleStates("poll-only")
                    .virtualized(true)
                    .noJitter()
                    .param(Param.VM_TIMER_DELIVERY, deliveryNs)
                    .tasks(
                        task("rt")
                            .fifo(50)
                            .program(
                                new StepSpec.SleepUntil(200 * US, "lat", "irq", null, null),
                                user(5 * US))))
            .kernel();
    k.run(50_000_000);
    return k;
  }

  @Test
  void aGuestTimerInterruptArrivesTheDeliveryLatencyAfterItsExpiry() {
    Histogram none = guest(0, QUIET).metrics.histogram("irq");
    Histogram tenUs = guest(10_000, QUIET).metrics.histogram("irq");
    assertThat(none.getTotalCount()).isGreaterThan(200);
    // The hrtimer handler runs 10 us later on every expiry, nothing else changes.
    assertThat(tenUs.getValueAtPercentile(50) - none.getValueAtPercentile(50))
        .isBetween(9_900L, 10_100L);
  }

  @Test
  void everyTimerExpiryOfAGuestStallsTheVcpuForTheDelivery() {
    Kernel k = guest(10_000, QUIET);
    long exits = TestKernels.counter(k, "host.timer_exits");
    // 250 sleeps and 50 ticks; each fifth sleep expires with a tick, one exit for both.
    assertThat(exits).isEqualTo(250);
    assertThat(TestKernels.counter(k, "host.stall_ns")).isEqualTo(exits * 10_000);
  }

  @Test
  void noiseStallsAreDrawnFromTheProfileAndDelayWhatRunsMeanwhile() {
    UnaryOperator<TestRun> noise = r -> r.noise(50 * US, 150 * US, 2000);
    Kernel noisy = guest(0, noise);
    long stalls = TestKernels.counter(noisy, "host.stalls");
    // About 2000/s for 50 ms: 100 +- a Poisson spread; each 50-150 us long.
    assertThat(stalls).isBetween(60L, 140L);
    long stallNs = TestKernels.counter(noisy, "host.stall_ns");
    assertThat(stallNs).isBetween(stalls * 40_000, stalls * 150_000);
    Histogram quiet = guest(0, QUIET).metrics.histogram("lat");
    Histogram lat = noisy.metrics.histogram("lat");
    assertThat(quiet.getMaxValue()).isLessThan(20_000);
    assertThat(lat.getMaxValue()).isGreaterThan(50_000); // a wakeup that met a stall waited it out
  }

  @Test
  void theSameSeedDrawsTheSameNoise() {
    UnaryOperator<TestRun> noise = r -> r.noise(50 * US, 150 * US, 1000).noise(MS, 2 * MS, 10);
    assertThat(guest(0, noise).digest()).isEqualTo(guest(0, noise).digest());
  }
}
