package dev.schedlab.host.calibrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.NoiseSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tick's gaps are told apart by their phase; the rest become the noise bins. */
class NoiseProfileTest {
  private static final long TICK = 4_000_000; // HZ 250

  @Test
  void ticksRecurAtOnePhaseAndAreLeftOut() {
    // Ticks at phase 3.99 ms (the gap starts just before the boundary), one wrapping past it.
    long[] gaps = {
      3_990_000,
      30_000,
      7_990_000,
      31_000,
      12_000_010,
      29_000,
      15_990_000,
      28_000,
      5_000_000,
      40_000,
      9_500_000,
      3_500,
      14_100_000,
      900_000,
    };
    boolean[] tick = NoiseProfile.tickGaps(gaps, TICK);
    assertThat(tick).containsExactly(true, true, true, true, false, false, false);
    NoiseProfile.Result r = NoiseProfile.of(List.of(gaps), 2.0, TICK, 3_000);
    assertThat(r.tickGaps()).isEqualTo(4);
    assertThat(r.tickGapMedianNs()).isEqualTo(30_000);
    assertThat(r.otherGaps()).isEqualTo(3);
    assertThat(r.noise().bins())
        .containsExactly(
            new NoiseSpec.Bin(3_000, 6_000, 0.5),
            new NoiseSpec.Bin(24_000, 48_000, 0.5),
            new NoiseSpec.Bin(768_000, 1_536_000, 0.5));
  }

  @Test
  void noGapsNoNoise() {
    NoiseProfile.Result r = NoiseProfile.of(List.of(new long[0], new long[0]), 1, TICK, 3_000);
    assertThat(r.noise().active()).isFalse();
    assertThat(r.tickGaps()).isZero();
  }
}
