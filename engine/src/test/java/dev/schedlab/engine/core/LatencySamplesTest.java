package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The latency series a workload can record: timer stages (timerlat), relative sleeps, caps. */
class LatencySamplesTest {
  /** One CPU: a timerlat-like FIFO task recording every stage, and a fair task's relative naps. */
  private static Kernel timerlat() {
    return TestRun.run()
        .duration(50 * MS)
        .cpus(1, 1, 1)
        .idleStates("poll-only")
        .noJitter()
        .sampleCap("user", 5)
        .tasks(
            task("timerlat")
                .fifo(95)
                .start(100 * US)
                .program(new StepSpec.SleepUntil(MS, "user", "irq", "thread", "ret"), user(5 * US)),
            task("nap").program(sleep(300 * US, "nap"), user(20 * US)))
        .kernel();
  }

  @Test
  void timerStagesAreOrderedAndMeasuredFromExpiry() {
    Kernel k = timerlat();
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
    Kernel k = timerlat();
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
    Kernel k = timerlat();
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
