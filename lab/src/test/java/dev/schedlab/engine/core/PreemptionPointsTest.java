package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

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
    return rtLatencyOf(preempt, "{duration: 50us, ends: " + point + "}");
  }

  /** As above with each of the ten segments given as {@code seg}. */
  private static Histogram rtLatencyOf(String preempt, String seg) {
    String yaml =
        "duration: 200ms\n"
            + "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}\n"
            + "kernel: {preempt: "
            + preempt
            + "}\n"
            + "workload:\n  tasks:\n"
            + "    - name: hog\n      program:\n        - kernel: ["
            + (seg + ",").repeat(9)
            + seg
            + "]\n"
            + "    - name: rt\n      policy: fifo\n      rt_priority: 50\n      start: 100us\n      program:\n"
            + "        - sleep_until: {period: 1ms, sample: rt}\n";
    Kernel k = TestKernels.kernel(yaml);
    k.run(200_000_000);
    return k.metrics.histogram("rt");
  }

  @Test
  void fullPreemptsAtTheTimerIrqExit() {
    Histogram h = rtLatency("full", "cond_resched");
    assertThat(h.getTotalCount()).isGreaterThan(150);
    assertThat(h.getMaxValue()).isLessThan(5_000);
  }

  @Test
  void lazyUsesNeedReschedForRtAndPreemptsAtOnce() {
    assertThat(rtLatency("lazy", "cond_resched").getMaxValue()).isLessThan(5_000);
  }

  @Test
  void voluntaryWaitsForTheNextCondResched() {
    Histogram h = rtLatency("voluntary", "cond_resched");
    assertThat(h.getMean()).isGreaterThan(10_000);
    assertThat(h.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void noneHonoursCondReschedToo() {
    Histogram h = rtLatency("none", "cond_resched");
    assertThat(h.getMean()).isGreaterThan(10_000);
    assertThat(h.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void mightReschedIsAPreemptionPointUnderVoluntaryOnly() {
    assertThat(rtLatency("voluntary", "might_resched").getMaxValue()).isLessThan(56_000);
    // Under none the RT task waits for the syscall's return to user (up to 500 us).
    assertThat(rtLatency("none", "might_resched").getMaxValue()).isGreaterThan(100_000);
  }

  @Test
  void lockedSegmentEndingInCondReschedStillPreemptsAtItsUnlockUnderFull() {
    // spin_unlock then cond_resched (zap_pte_range): under full the
    // preempt_enable() of the unlock acts, although cond_resched() itself is a no-op.
    String seg = "{duration: 50us, preemptible: false, ends: cond_resched}";
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
    String seg = "{duration: 50us, preemptible: false, irqs_off: true}";
    Histogram full = rtLatencyOf("full", seg);
    assertThat(full.getTotalCount()).isGreaterThan(150);
    assertThat(full.getMaxValue()).isLessThan(56_000);
  }

  @Test
  void fullIgnoresCondReschedButNoneWaitsForReturnToUserWithoutIt() {
    assertThat(rtLatency("none", "none").getMaxValue()).isGreaterThan(100_000);
    assertThat(rtLatency("full", "none").getMaxValue()).isLessThan(5_000);
  }
}
