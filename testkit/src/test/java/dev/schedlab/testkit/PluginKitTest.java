package dev.schedlab.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.plugin.PluginException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PluginKitTest {
  /** Overrides H1 and always falls back to the normal pick: it changes nothing. */
  static final class Observer implements SchedlabPlugin {
    @Override
    public PluginDescriptor descriptor() {
      return new PluginDescriptor(
          "observer",
          "1.0.0",
          "test",
          Set.of(HookPoint.H1_PICK_OVERRIDE),
          Set.of(),
          ">=1.0.0 & <2.0.0");
    }

    @Override
    public Set<String> optionKeys() {
      return Set.of("mode");
    }

    @Override
    public void contribute(Contributions c, PluginOptions options) {
      c.hook(PickOverrideHook.class, (cpu, mode, prev, rq) -> null);
    }
  }

  /** Overrides H1 and throws: a bug its test must see. */
  static final class Broken implements SchedlabPlugin {
    @Override
    public PluginDescriptor descriptor() {
      return new PluginDescriptor(
          "broken",
          "1.0.0",
          "test",
          Set.of(HookPoint.H1_PICK_OVERRIDE),
          Set.of(),
          ">=1.0.0 & <2.0.0");
    }

    @Override
    public void contribute(Contributions c, PluginOptions options) {
      c.hook(
          PickOverrideHook.class,
          (cpu, mode, prev, rq) -> {
            throw new IllegalStateException("bug");
          });
    }
  }

  @RegisterExtension static final PluginKit KIT = PluginKit.of(Observer::new);

  @Test
  void aPluginThatThrowsFailsItsTestInsteadOfBeingEjected() {
    PluginKit kit = PluginKit.of(Broken::new);
    assertThatThrownBy(() -> kit.run(SLEEPERS, "broken"))
        .isInstanceOf(dev.schedlab.engine.SimulationException.class)
        .hasMessageContaining("plugin broken failed in hook H1 pickOverride")
        .hasMessageContaining("bug");
  }

  private static final TestScenario SLEEPERS =
      TestScenario.builder()
          .duration("50ms")
          .machine("preset", "small-x86")
          .task(
              "sleeper", t -> t.count(4).program("{user: 100us}", "{sleep: 1ms}", "{mark: loops}"))
          .build();

  @Test
  void compareRunsTheBaselineAndThePluginOnTheSameWorkload() throws Exception {
    Comparison c = KIT.compare(SLEEPERS);
    assertThat(c.baseline().label()).isEqualTo("baseline");
    assertThat(c.patched().label()).isEqualTo("observer");
    assertThat(c.baseline().metric("mark.loops")).isGreaterThan(100);
    // The hook ran at every pick, and a plugin that changes nothing leaves the digest alone.
    assertThat(c.patched().hookCalls(HookPoint.H1_PICK_OVERRIDE)).isPositive();
    assertThat(c.baseline().hookCalls()).isEmpty();
    assertThat(c.changed()).isFalse();
    assertThat(c.delta("mark.loops")).isZero();
    assertThat(c.ratio("mark.loops")).isEqualTo(1.0);
  }

  @Test
  void runsAreDeterministic() throws Exception {
    assertThat(KIT.run(SLEEPERS).digest()).isEqualTo(KIT.run(SLEEPERS).digest());
    assertThat(KIT.run(SLEEPERS.set("seed=2")).digest())
        .isEqualTo(KIT.run(SLEEPERS.set("seed=2")).digest());
  }

  @Test
  void tracingKeepsTheFtraceText() throws Exception {
    Run r = KIT.tracing().run(SLEEPERS, "observer:mode=x");
    assertThat(r.label()).isEqualTo("observer:mode=x");
    assertThat(r.trace().get(0)).isEqualTo("# tracer: nop");
    assertThat(r.trace("sched_switch"))
        .isNotEmpty()
        .allSatisfy(l -> assertThat(l).contains("prev_comm=").contains("next_comm="));
    assertThat(KIT.run(SLEEPERS).trace()).isEmpty();
  }

  @Test
  void toolReportsAndSeries() throws Exception {
    TestScenario cyclic =
        TestScenario.yaml(
            """
        duration: 100ms
        machine: {preset: kvm-4vcpu}
        workload:
          tools:
            - cyclictest: "-i 1000 -t1 -m"
        """);
    Run r = KIT.run(cyclic);
    assertThat(r.report("cyclictest")).isNotEmpty();
    assertThat(r.reportText()).contains("$ cyclictest");
    assertThatThrownBy(() -> r.report("hackbench")).hasMessageContaining("tools: [cyclictest]");
  }

  @Test
  void mistakesAreNamed() throws Exception {
    Run r = KIT.run(SLEEPERS);
    assertThatThrownBy(() -> r.metric("mark.lops"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mark.loops");
    assertThat(r.metricOrZero("spin.started")).isZero();
    assertThatThrownBy(() -> KIT.run(SLEEPERS, "observer:speed=3"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("unknown option 'speed'");
    assertThatThrownBy(() -> KIT.run(SLEEPERS, "absent"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("unknown plugin absent");
    assertThatThrownBy(() -> KIT.run(TestScenario.yaml("duration: -1s")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duration");
  }
}
