package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.engine.params.Param;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The latency series a workload can record: timer stages (timerlat), relative sleeps, caps. */
class LatencySamplesTest {
  private static final String TIMERLAT =
      String.join(
          "\n",
          "duration: 50ms",
          "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}",
          "kernel: {params: {cost.jitter_pct: 0}}",
          "workload:",
          "  samples: {user: {max: 5}}",
          "  tasks:",
          "    - name: timerlat",
          "      policy: fifo",
          "      rt_priority: 95",
          "      start: 100us",
          "      program:",
          "        - sleep_until: {period: 1ms, irq_sample: irq, thread_sample: thread, sample: user,"
              + " ret_user_sample: ret}",
          "        - user: 5us",
          "    - name: nap",
          "      program:",
          "        - sleep: {duration: 300us, sample: nap}",
          "        - user: 20us",
          "");

  @Test
  void timerStagesAreOrderedAndMeasuredFromExpiry() {
    Kernel k = TestKernels.kernel(TIMERLAT);
    k.run(50_000_000);
    Histogram irq = k.metrics.histogram("irq");
    Histogram thread = k.metrics.histogram("thread");
    Histogram ret = k.metrics.histogram("ret");
    assertThat(irq.getTotalCount()).isGreaterThanOrEqualTo(45);
    assertThat(irq.getMinValue()).isGreaterThanOrEqualTo(Param.IRQ_ENTRY.defaultValue());
    assertThat(thread.getMean()).isGreaterThan(irq.getMean());
    // Ret user is taken at the next kernel entry, after the 5 us user part.
    assertThat(ret.getMean()).isGreaterThan(thread.getMean() + 5_000);
  }

  @Test
  void capKeepsTheFirstSamplesRawAndUncappedSeriesKeepNone() {
    Kernel k = TestKernels.kernel(TIMERLAT);
    k.run(50_000_000);
    assertThat(k.metrics.histogram("user").getTotalCount()).isEqualTo(5);
    assertThat(k.metrics.rawSamples()).containsOnlyKeys("user");
    long[] raw = k.metrics.rawSamples().get("user");
    assertThat(raw).hasSize(5);
    assertThat(java.util.Arrays.stream(raw).min().orElseThrow()).isPositive();
    // The user-space sample lies between Thread and Ret user for the same wakeups.
    Histogram ret = k.metrics.histogram("ret");
    assertThat((double) raw[0]).isLessThan(ret.getMaxValue());
  }

  @Test
  void relativeSleepSampleIsOvershootPastTheRequestedDuration() {
    Kernel k = TestKernels.kernel(TIMERLAT);
    k.run(50_000_000);
    Histogram nap = k.metrics.histogram("nap");
    assertThat(nap.getTotalCount()).isGreaterThan(100);
    // stress-ng --cyclic's sample, (t2 - t1) - delay: for a SCHED_OTHER sleeper the timer slack
    // (50 us) plus a few microseconds of wakeup on an idle CPU; the few that another timer
    // interrupt (tick, timerlat) catches inside the slack are earlier.
    long slack = Param.TIMER_SLACK.defaultValue();
    assertThat(nap.getMinValue()).isPositive();
    assertThat(nap.getValueAtPercentile(25)).isGreaterThanOrEqualTo(slack);
    assertThat(nap.getValueAtPercentile(50)).isCloseTo(slack + 5_000, within(5_000L));
  }
}
