package dev.schedlab.engine.core;

import static dev.schedlab.engine.core.Steps.sleep;
import static dev.schedlab.engine.core.Steps.sleepUntil;
import static dev.schedlab.engine.core.Steps.user;
import static dev.schedlab.engine.core.TestRun.MS;
import static dev.schedlab.engine.core.TestRun.US;
import static dev.schedlab.engine.core.TestRun.task;
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
  /** A task that sleeps 75 us (recording the overshoot as "nap"), then runs 5 us. */
  private static TestRun.Task nap() {
    return task("nap").program(sleep(75 * US, "nap"), user(5 * US));
  }

  /** A FIFO task on a 20 us period. */
  private static TestRun.Task periodicRt() {
    return task("periodic").fifo(50).program(sleepUntil(20 * US), user(US));
  }

  /** One CPU running {@code tasks}; the "nap" histogram. */
  private static Histogram naps(TestRun.Task... tasks) {
    Kernel k =
        TestRun.run()
            .duration(20 * MS)
            .cpus(1, 1, 1)
            .idleStates("poll-only")
            .noJitter()
            .tasks(tasks)
            .kernel();
    k.run(20_000_000);
    return k.metrics.histogram("nap");
  }

  @Test
  void aFairSleepAloneFiresAtTheEndOfItsSlack() {
    // Only the 1 ms tick can interrupt inside the slack, so most sleeps run to its end.
    assertThat(naps(nap()).getValueAtPercentile(75))
        .isGreaterThanOrEqualTo(Param.TIMER_SLACK.defaultValue());
  }

  @Test
  void anRtSleepGetsNoSlack() {
    assertThat(naps(nap().fifo(10)).getMaxValue()).isLessThan(Param.TIMER_SLACK.defaultValue() / 2);
  }

  @Test
  void aTaskWithItsOwnTimerSlackSleepsWithIt() {
    // prctl(PR_SET_TIMERSLACK, 1): the sleep ends at the requested time, not 50 us later.
    Histogram own = naps(nap().timerSlack(1));
    assertThat(own.getTotalCount()).isGreaterThan(100);
    assertThat(own.getMaxValue()).isLessThan(Param.TIMER_SLACK.defaultValue() / 2);
  }

  @Test
  void anotherTimerInterruptInsideTheSlackRunsTheSleepEarly() {
    // A 20 us RT timer on the same CPU interrupts within every fair sleep's 50 us slack.
    Histogram coalesced = naps(nap(), periodicRt());
    assertThat(coalesced.getTotalCount()).isGreaterThan(100);
    assertThat(coalesced.getMean()).isLessThan(Param.TIMER_SLACK.defaultValue() / 2.0);
  }
}
