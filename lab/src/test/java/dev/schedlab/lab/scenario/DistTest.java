package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class DistTest {
  static Dist user(String dur) throws ScenarioException {
    Scenario s =
        ScenarioLoader.parse(
            "d.yaml",
            "workload: {tasks: [{program: [user: " + dur + "]}]}\n",
            true,
            "d",
            List.of());
    return ((StepSpec.User) s.workload().tasks().get(0).program().get(0)).duration();
  }

  @Test
  void fixedUnits() throws Exception {
    assertThat(user("250ns")).isEqualTo(Dist.fixed(250));
    assertThat(user("100us")).isEqualTo(Dist.fixed(100_000));
    assertThat(user("1.5ms")).isEqualTo(Dist.fixed(1_500_000));
    assertThat(user("10s")).isEqualTo(Dist.fixed(10_000_000_000L));
    assertThat(user("1234")).isEqualTo(Dist.fixed(1234));
  }

  @Test
  void uniformAndExp() throws Exception {
    assertThat(user("{uniform: [1us, 3us]}")).isEqualTo(Dist.uniform(1000, 3000));
    assertThat(user("{uniform: [1us, 3us]}").meanNs()).isEqualTo(2000.0);
    assertThat(user("{exp: 2ms}")).isEqualTo(new Dist(Dist.Kind.EXP, 2_000_000, 0));
  }

  @Test
  void rejectsBadDistributions() {
    assertThatThrownBy(() -> user("{uniform: [3us, 1us]}")).hasMessageContaining("expected A <= B");
    assertThatThrownBy(() -> user("{uniform: [3us]}"))
        .hasMessageContaining("expected two durations");
    assertThatThrownBy(() -> user("{normal: 3us}"))
        .hasMessageContaining(
            "program[0].user.normal: unknown field; expected one of uniform, exp");
    assertThatThrownBy(() -> user("-5")).hasMessageContaining("expected a duration");
    assertThatThrownBy(() -> user("5 lightyears")).hasMessageContaining("expected a duration");
  }
}
