package dev.schedlab.samples.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class Sample04ConflictTest {
  @RegisterExtension
  static final PluginKit KIT = PluginKit.of(Sample04FirstPlugin::new, Sample04SecondPlugin::new);

  private static final TestScenario SLEEPERS =
      TestScenario.builder()
          .duration("20ms")
          .task("sleeper", t -> t.count(2).program("{user: 50us}", "{sleep: 1ms}"))
          .build();

  @Test
  void eachRunsAlone() throws Exception {
    for (String id : new String[] {"sample-first", "sample-second"}) {
      Run r = KIT.run(SLEEPERS, id);
      assertThat(r.hookCalls(HookPoint.H1_PICK_OVERRIDE)).as(id).isPositive();
      assertThat(r.digest()).as("mainline behaviour").isEqualTo(KIT.run(SLEEPERS).digest());
    }
  }

  @Test
  void togetherTheyAreRefusedWithBothNames() {
    assertThatThrownBy(() -> KIT.run(SLEEPERS, "sample-first", "sample-second"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("sample-first")
        .hasMessageContaining("sample-second")
        .hasMessageContaining("H1");
  }
}
