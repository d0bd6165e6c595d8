package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.kernel;
import static dev.schedlab.engine.core.Steps.segment;
import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Each preemption model acts on exactly its preemption points (section 1.6): an RT task waking over
 * a fair task in a long syscall preempts at the next IRQ exit under full and lazy, at the next
 * cond_resched under none and voluntary, and at might_resched only under voluntary.
 */
class PreemptionPointsTest {
  /** One CPU; a fair task in 500 us syscalls made of 50 us segments ending with {@code point}. */
  private static Histogram rtLatency(String preempt, String point) {
    return rtLatencyOf(preempt, segment(50 * US, true, false, point));
  }

  /** As above with each of the ten segments given as {@code seg}. */
  private static Histogram rtLatencyOf(String preempt, Segment seg) {
    Segment[] ten = new Segment[10];
    Arrays.fill(ten, seg);
    Kernel k =
        TestRun.run()
            .duration(200 * MS)
            .cpus(1, 1, 1)
            .idleStates("poll-only")
            .preempt(preempt)
            .tasks(
                task("hog").program(kernel(ten)),
                task("rt").fifo(50).start(100 * US).program(sleepUntil(MS, "rt")))
            .kernel();
    k.run(200_000_000);
    return k.metrics.histogram("rt");
  }

  @Test
  void fullPreemptsAtTheTimerIrqExit() {
    Histogram h = rtLatency("full", "COND_RESCHED");
    assertThat(h.getTotalCount()).isGreaterThan(150);
    assertThat(h.getMaxValue()).isLessThan(5_000);
  }

  @Test
  void lazyUsesNeedReschedForRtAndPreemptsAtOnce() {
    assertThat(rtLatency("lazy", "COND_RESCHED").getMaxValue()).isLessThan(5_000);
  }

  @Test
  void voluntaryWaitsForTheNextCondResched() {
    Histogram h = rtLatency("voluntary", "COND_RESCHED");
    assertThat(h.getMean()).isGreaterThan(10_000);
    assertThat(h.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void noneHonoursCondReschedToo() {
    Histogram h = rtLatency("none", "COND_RESCHED");
    assertThat(h.getMean()).isGreaterThan(10_000);
    assertThat(h.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void mightReschedIsAPreemptionPointUnderVoluntaryOnly() {
    assertThat(rtLatency("voluntary", "MIGHT_RESCHED").getMaxValue()).isLessThan(56_000);
    // Under none the RT task waits for the syscall's return to user (up to 500 us).
    assertThat(rtLatency("none", "MIGHT_RESCHED").getMaxValue()).isGreaterThan(100_000);
  }

  @Test
  void lockedSegmentEndingInCondReschedStillPreemptsAtItsUnlockUnderFull() {
    // spin_unlock then cond_resched (zap_pte_range): under full the
    // preempt_enable() of the unlock acts, although cond_resched() itself is a no-op.
    Segment seg = segment(50 * US, false, false, "COND_RESCHED");
    Histogram full = rtLatencyOf("full", seg);
    assertThat(full.getTotalCount()).isGreaterThan(150);
    assertThat(full.getMaxValue()).isLessThan(56_000);
    assertThat(full.getMean()).isGreaterThan(10_000);
    // voluntary acts on the cond_resched after the same span: same bound
    assertThat(rtLatencyOf("voluntary", seg).getMaxValue()).isLessThan(56_000);
  }

  @Test
  void irqLatchedInAnIrqsOffSegmentRunsAtItsEndNotAtTheEndOfTheNextOne() {
    // Back-to-back irqsave sections (release_pages drops lru_lock every 32 folios): the timer
    // IRQ fires at the first local_irq_restore, then preempt_enable() acts under full.
    Segment seg = segment(50 * US, false, true, "NONE");
    Histogram full = rtLatencyOf("full", seg);
    assertThat(full.getTotalCount()).isGreaterThan(150);
    assertThat(full.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void fullIgnoresCondReschedButNoneWaitsForReturnToUserWithoutIt() {
    assertThat(rtLatency("none", "NONE").getMaxValue()).isGreaterThan(100_000);
    assertThat(rtLatency("full", "NONE").getMaxValue()).isLessThan(5_000);
  }
}
