package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Both variants of {@link IdleScanBenchmark} find the same CPU after the same probes. */
class IdleScanBenchmarkTest {
  @Test
  void loopAndMaskAgreeFromEveryTarget() {
    for (int idle : new int[] {0, 1, 8}) {
      IdleScanBenchmark b = new IdleScanBenchmark();
      b.idle = idle;
      b.setUp();
      int found = 0;
      for (int t = b.span.nextSetBit(0); t >= 0; t = b.span.nextSetBit(t + 1)) {
        long loop = b.scanLoop(t);
        assertThat(b.scanMask(t)).as("idle %d, target %d", idle, t).isEqualTo(loop);
        found += loop >> 32 >= 0 ? 1 : 0;
      }
      assertThat(found).as("targets that found an idle CPU").isEqualTo(idle == 0 ? 0 : 64);
    }
  }
}
