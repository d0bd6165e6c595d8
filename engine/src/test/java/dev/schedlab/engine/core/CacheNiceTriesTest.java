package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code sd_init()}'s {@code cache_nice_tries}: SMT siblings share their caches
 * (SD_SHARE_CPUCAPACITY keeps the initial 0), NUMA levels get 2, the others 1. It is how many
 * failed balance passes a recently run task resists migration at that level.
 */
class CacheNiceTriesTest {
  @Test
  void perLevelAsSdInitSetsIt() {
    // Two nodes of two SMT2 cores: SMT, MC (or PKG) and NUMA levels above CPU 0.
    Kernel k = TestRun.run().cpus(2, 2, 2).idleStates("poll-only").kernel();
    SchedDomain[] levels = k.cpus[0].domains;
    assertThat(Arrays.stream(levels).map(sd -> sd.name)).contains("SMT", "NUMA");
    for (SchedDomain sd : levels) {
      int expected =
          switch (sd.name) {
            case "SMT" -> 0;
            case "NUMA" -> 2;
            default -> 1;
          };
      assertThat(LoadBalancer.cacheNiceTries(sd)).as(sd.name).isEqualTo(expected);
    }
  }
}
