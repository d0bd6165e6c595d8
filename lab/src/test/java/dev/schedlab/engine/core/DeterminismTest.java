package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.lab.scenario.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Same scenario and seed give the same event stream; a plugin that changes nothing leaves it alone.
 */
class DeterminismTest {
  private static Scenario quickstart() throws Exception {
    Path p = Path.of("..", "examples", "quickstart.yaml");
    return TestKernels.scenario(Files.readString(p)).withSeed(7);
  }

  private static Kernel runOnce(Scenario s, dev.schedlab.engine.plugin.Extensions ext) {
    Kernel k = TestKernels.kernel(s, ext);
    k.run(s.durationNs() / 4);
    return k;
  }

  @Test
  void sameSeedSameDigestAndMetrics() throws Exception {
    Scenario s = quickstart();
    Kernel a = runOnce(s, TestKernels.builtins());
    Kernel b = runOnce(s, TestKernels.builtins());
    assertThat(a.events()).isGreaterThan(1000);
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.metricsSnapshot()).isEqualTo(a.metricsSnapshot());
  }

  @Test
  void anotherSeedGivesAnotherStream() throws Exception {
    Scenario s = quickstart();
    Kernel a = runOnce(s, TestKernels.builtins());
    Kernel b = runOnce(s.withSeed(8), TestKernels.builtins());
    assertThat(b.digest()).isNotEqualTo(a.digest());
  }

  @Test
  void aHookThatChangesNothingKeepsTheDigest() throws Exception {
    Scenario s = quickstart();
    Kernel a = runOnce(s, TestKernels.builtins());
    Kernel b = runOnce(s, TestKernels.withPickOverride((cpu, mode, prev, rq) -> null));
    assertThat(b.digest()).isEqualTo(a.digest());
  }
}
