package dev.schedlab.engine.bg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimerWheelStreamTest {
  private static final long S = 1_000_000_000L;

  @Test
  void expiresAboutTheRatePerSecondWhenCheckedEveryTick() {
    TimerWheelStream w =
        new TimerWheelStream(new BackgroundRates(20, 0.5, 0, 0), new SplittableRandom(7));
    long n = 0;
    for (long t = 4_000_000; t <= 100 * S; t += 4_000_000) {
      n += w.expire(t);
    }
    assertThat(n).isBetween(1800L, 2200L);
  }

  @Test
  void onlyNonDeferrableTimersAreNextForAnIdleCpu() {
    TimerWheelStream all =
        new TimerWheelStream(new BackgroundRates(20, 1.0, 0, 0), new SplittableRandom(7));
    assertThat(all.nextHardNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.due(10 * S)).isTrue();
    TimerWheelStream none =
        new TimerWheelStream(new BackgroundRates(20, 0.0, 0, 0), new SplittableRandom(7));
    assertThat(none.nextHardNs()).isLessThan(10 * S);
  }

  @Test
  void callbacksQueueWorkAndRcuCallbacksAtTheirShares() {
    TimerWheelStream w =
        new TimerWheelStream(new BackgroundRates(100, 0, 0.25, 1.5), new SplittableRandom(3));
    int n = w.expire(100 * S);
    assertThat(n).isBetween(9000, 11000);
    assertThat((double) w.works() / n).isBetween(0.22, 0.28);
    assertThat((double) w.rcuCallbacks() / n).isBetween(1.45, 1.55);
  }

  @Test
  void theSameSeedGivesTheSameExpiriesWhateverTheCheckTimes() {
    BackgroundRates r = new BackgroundRates(50, 0.3, 0.5, 0.7);
    TimerWheelStream a = new TimerWheelStream(r, new SplittableRandom(11));
    TimerWheelStream b = new TimerWheelStream(r, new SplittableRandom(11));
    int na = 0;
    int works = 0;
    for (long t = 1_000_000; t <= 10 * S; t += 1_000_000) {
      na += a.expire(t);
      works += a.works();
    }
    assertThat(b.expire(10 * S)).isEqualTo(na);
    assertThat(b.works()).isEqualTo(works);
  }

  @Test
  void rejectsASharePastOne() {
    assertThatThrownBy(() -> BackgroundRates.fromTable(1000, 1500, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("per mille");
  }
}
