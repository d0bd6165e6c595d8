package dev.schedlab.lab.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hooks H16-H18 that change nothing keep the digest of hackbench, whose wakeups exercise wake_wide
 * and whose forks and blocking move load (the engine's FairHooksTest checks the same on its own
 * runs; hackbench is a lab tool).
 */
class HackbenchFairHooksTest {
  private static RunResult run(RunConfig c, boolean noOpHooks) throws Exception {
    try (PluginHost host = PluginHost.builtinOnly()) {
      Extensions ext = host.extensionsFor(List.of());
      if (noOpHooks) {
        ext =
            ext.withFairHooks(
                (p, prev, waker, flags, selected) -> selected,
                (dst, sd, idle, local, busiest, type, imbalance) -> imbalance,
                (p, ewma, dq, runnable, cap, mainline) -> mainline);
      }
      return Simulation.run(c, ext, TraceSink.NONE);
    }
  }

  @Test
  void noOpHooksKeepTheDigest() throws Exception {
    RunConfig c = ScenarioLoader.load(Path.of("..", "scenarios", "hackbench.yaml")).config();
    RunConfig first200ms =
        new RunConfig(c.name(), c.seed(), 200_000_000L, c.machine(), c.kernel(), c.workload());
    RunResult a = run(first200ms, false);
    RunResult b = run(first200ms, true);
    assertThat(a.events()).isGreaterThan(10_000);
    assertThat(b.digest()).isEqualTo(a.digest());
  }
}
