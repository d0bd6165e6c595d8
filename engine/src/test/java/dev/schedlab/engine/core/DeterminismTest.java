package dev.schedlab.engine.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import org.junit.jupiter.api.Test;

/**
 * Same scenario and seed give the same event stream; a plugin that changes nothing leaves it alone.
 */
class DeterminismTest {
  private static RunConfig quickstart(long seed) {
    return ExampleRuns.quickstart().seed(seed).config();
  }

  private static Kernel runOnce(RunConfig c, Extensions ext) {
    Kernel k = KernelBuilder.build(c, ext, TraceSink.NONE);
    k.run(c.durationNs() / 4);
    return k;
  }

  @Test
  void sameSeedSameDigestAndMetrics() {
    RunConfig c = quickstart(7);
    Kernel a = runOnce(c, TestKernels.builtins());
    Kernel b = runOnce(c, TestKernels.builtins());
    assertThat(a.events()).isGreaterThan(1000);
    assertThat(b.digest()).isEqualTo(a.digest());
    assertThat(b.metricsSnapshot()).isEqualTo(a.metricsSnapshot());
  }

  @Test
  void aRunStoppedMidwayContinuesWithTheSameEvents() {
    RunConfig c = ExampleRuns.quickstart().seed(7).duration(250 * 1_000_000L).config();
    KernelRun whole = KernelRun.prepare(c, TestKernels.builtins(), TraceSink.NONE);
    whole.run();
    KernelRun split = KernelRun.prepare(c, TestKernels.builtins(), TraceSink.NONE);
    long half = split.runUntil(c.durationNs() / 2);
    assertThat(half).isGreaterThan(100).isLessThan(whole.events());
    assertThat(split.nowNs()).isEqualTo(c.durationNs() / 2);
    split.run();
    assertThat(split.events()).isEqualTo(whole.events());
    assertThat(split.digest()).isEqualTo(whole.digest());
    assertThat(split.metrics()).isEqualTo(whole.metrics());
  }

  @Test
  void anotherSeedGivesAnotherStream() {
    Kernel a = runOnce(quickstart(7), TestKernels.builtins());
    Kernel b = runOnce(quickstart(8), TestKernels.builtins());
    assertThat(b.digest()).isNotEqualTo(a.digest());
  }

  @Test
  void aHookThatChangesNothingKeepsTheDigest() {
    RunConfig c = quickstart(7);
    Kernel a = runOnce(c, TestKernels.builtins());
    Kernel b = runOnce(c, TestKernels.withPickOverride((cpu, mode, prev, rq) -> null));
    assertThat(b.digest()).isEqualTo(a.digest());
  }
}
