package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Time lost outside the modelled kernel: a guest's timer expiry exits to the host and its vector is
 * injected latency.vm_timer_delivery later; measured noise stalls a CPU, which then advances
 * nothing and takes interrupts when the stall ends.
 */
class HostInterferenceTest {
  private static final String GUEST =
      String.join(
          "\n",
          "duration: 50ms",
          "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only,",
          "          virtualized: true%s}",
          "kernel: {params: {cost.jitter_pct: 0, latency.vm_timer_delivery: %d}}",
          "workload:",
          "  tasks:",
          "    - name: rt",
          "      policy: fifo",
          "      rt_priority: 50",
          "      program:",
          "        - sleep_until: {period: 200us, sample: lat, irq_sample: irq}",
          "        - user: 5us",
          "");

  private static Kernel guest(long deliveryNs, String noise) {
    Kernel k = TestKernels.kernel(String.format(GUEST, noise, deliveryNs));
    k.run(50_000_000);
    return k;
  }

  @Test
  void aGuestTimerInterruptArrivesTheDeliveryLatencyAfterItsExpiry() {
    Histogram none = guest(0, "").metrics.histogram("irq");
    Histogram tenUs = guest(10_000, "").metrics.histogram("irq");
    assertThat(none.getTotalCount()).isGreaterThan(200);
    // The hrtimer handler runs 10 us later on every expiry, nothing else changes.
    assertThat(tenUs.getValueAtPercentile(50) - none.getValueAtPercentile(50))
        .isBetween(9_900L, 10_100L);
  }

  @Test
  void everyTimerExpiryOfAGuestStallsTheVcpuForTheDelivery() {
    Kernel k = guest(10_000, "");
    long exits = TestKernels.counter(k, "host.timer_exits");
    // 250 sleeps and 50 ticks; each fifth sleep expires with a tick, one exit for both.
    assertThat(exits).isEqualTo(250);
    assertThat(TestKernels.counter(k, "host.stall_ns")).isEqualTo(exits * 10_000);
  }

  @Test
  void noiseStallsAreDrawnFromTheProfileAndDelayWhatRunsMeanwhile() {
    String noise = ", noise: {bins: [{from: 50us, to: 150us, rate: 2000}]}";
    Kernel noisy = guest(0, noise);
    long stalls = TestKernels.counter(noisy, "host.stalls");
    // About 2000/s for 50 ms: 100 +- a Poisson spread; each 50-150 us long.
    assertThat(stalls).isBetween(60L, 140L);
    long stallNs = TestKernels.counter(noisy, "host.stall_ns");
    assertThat(stallNs).isBetween(stalls * 40_000, stalls * 150_000);
    Histogram quiet = guest(0, "").metrics.histogram("lat");
    Histogram lat = noisy.metrics.histogram("lat");
    assertThat(quiet.getMaxValue()).isLessThan(20_000);
    assertThat(lat.getMaxValue()).isGreaterThan(50_000); // a wakeup that met a stall waited it out
  }

  @Test
  void theSameSeedDrawsTheSameNoise() {
    String noise =
        ", noise: {bins: [{from: 50us, to: 150us, rate: 1000}, {from: 1ms, to: 2ms,"
            + " rate: 10}]}";
    assertThat(guest(0, noise).digest()).isEqualTo(guest(0, noise).digest());
  }
}
