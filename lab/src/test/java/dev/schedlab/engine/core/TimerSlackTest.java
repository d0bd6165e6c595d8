package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.params.Param;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * hrtimer slack: a SCHED_OTHER sleep fires up to sched.timer_slack after the requested time, unless
 * another timer interrupt on its CPU comes after the requested time first and runs it early; an RT
 * sleep gets no slack.
 */
class TimerSlackTest {
  private static final String ONE_CPU =
      String.join(
          "\n",
          "duration: 20ms",
          "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1, idle_states: poll-only}",
          "kernel: {params: {cost.jitter_pct: 0}}",
          "workload:",
          "  tasks:",
          "    - name: nap",
          "      policy: %s",
          "      program:",
          "        - sleep: {duration: 75us, sample: nap}",
          "        - user: 5us",
          "%s");

  private static final String PERIODIC_RT =
      String.join(
          "\n",
          "    - name: periodic",
          "      policy: fifo",
          "      rt_priority: 50",
          "      program:",
          "        - sleep_until: {period: 20us}",
          "        - user: 1us",
          "");

  private static Histogram naps(String policy, String others) {
    Kernel k = TestKernels.kernel(String.format(ONE_CPU, policy, others));
    k.run(20_000_000);
    return k.metrics.histogram("nap");
  }

  @Test
  void aFairSleepAloneFiresAtTheEndOfItsSlack() {
    // Only the 1 ms tick can interrupt inside the slack, so most sleeps run to its end.
    assertThat(naps("normal", "").getValueAtPercentile(75))
        .isGreaterThanOrEqualTo(Param.TIMER_SLACK.defaultValue());
  }

  @Test
  void anRtSleepGetsNoSlack() {
    assertThat(naps("fifo\n      rt_priority: 10", "").getMaxValue())
        .isLessThan(Param.TIMER_SLACK.defaultValue() / 2);
  }

  @Test
  void aTaskWithItsOwnTimerSlackSleepsWithIt() {
    // prctl(PR_SET_TIMERSLACK, 1): the sleep ends at the requested time, not 50 us later.
    Histogram own = naps("normal\n      timer_slack: 1ns", "");
    assertThat(own.getTotalCount()).isGreaterThan(100);
    assertThat(own.getMaxValue()).isLessThan(Param.TIMER_SLACK.defaultValue() / 2);
  }

  @Test
  void anotherTimerInterruptInsideTheSlackRunsTheSleepEarly() {
    // A 20 us RT timer on the same CPU interrupts within every fair sleep's 50 us slack.
    Histogram coalesced = naps("normal", PERIODIC_RT);
    assertThat(coalesced.getTotalCount()).isGreaterThan(100);
    assertThat(coalesced.getMean()).isLessThan(Param.TIMER_SLACK.defaultValue() / 2.0);
  }
}
