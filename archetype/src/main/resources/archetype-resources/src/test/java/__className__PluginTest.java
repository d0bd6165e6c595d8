package ${package};

import static org.assertj.core.api.Assertions.assertThat;

#if( $variant == "hook-override" )
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.testkit.Comparison;
#elseif( $variant == "scheduling-class" )
import dev.schedlab.testkit.Comparison;
#end
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The plugin in a running kernel, on the project's scenario.yaml (see docs/authoring.md). */
class ${className}PluginTest {
  @RegisterExtension static final PluginKit KIT = PluginKit.of(${className}Plugin::new);

  private static final TestScenario SCENARIO = TestScenario.file(Path.of("scenario.yaml"));

#if( $variant == "idle-policy" )
  @Test
  void thePolicyGovernsTheIdleCpus() throws Exception {
    Run menu = KIT.run(SCENARIO.set("machine.idle_governor=menu"), "${artifactId}");
    Run mine = KIT.run(SCENARIO, "${artifactId}");
    // The same workload gets done...
    assertThat(mine.metric("mark.wakeups")).isPositive()
        .isCloseTo(menu.metric("mark.wakeups"), org.assertj.core.data.Percentage.withPercentage(5));
    // ...but the idle CPUs choose their states by the timer alone: deeper than menu, which
    // predicts the short sleeps of this workload.
    assertThat(mine.metric("idle.entries.C6")).isGreaterThan(menu.metric("idle.entries.C6"));
  }
#elseif( $variant == "scheduling-class" )
  @Test
  void theClassRunsTheExtTasksInTurns() throws Exception {
    Comparison c = KIT.compare(SCENARIO);
    // Without the plugin the ext tasks fall back to the fair class; with it they are ours.
    assertThat(c.changed()).isTrue();
    assertThat(c.patched().metric("mark.hog")).isPositive();
    assertThat(c.patched().metric("mark.nap")).isPositive();
  }

  @Test
  void longerTurnsMeanFewerSwitches() throws Exception {
    Run shortTurns = KIT.run(SCENARIO, "${artifactId}:slice_ticks=1");
    Run longTurns = KIT.run(SCENARIO, "${artifactId}:slice_ticks=8");
    assertThat(longTurns.metric("sched.context_switches"))
        .isLessThan(shortTurns.metric("sched.context_switches"));
  }
#else
  @Test
  void theHookRunsAndChangesNothingYet() throws Exception {
    Comparison c = KIT.compare(SCENARIO);
    assertThat(c.patched().hookCalls(HookPoint.H1_PICK_OVERRIDE)).isPositive();
    // The template overrides H1 with mainline behaviour: the same event stream. Replace this with
    // the effect your patch should have, e.g. c.delta("sched.newidle_balance_calls") < 0.
    assertThat(c.changed()).isFalse();
  }
#end
}
