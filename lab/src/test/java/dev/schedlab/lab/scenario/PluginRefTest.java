package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.PluginRef;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginRefTest {
  @Test
  void optionLineGivesTheIdAndSortedOptions() {
    assertThat(PluginRef.parse("idle-spin")).isEqualTo(new PluginRef("idle-spin", Map.of()));
    PluginRef r = PluginRef.parse(" idle-spin : predict=true ; limit=500us; ");
    assertThat(r.id()).isEqualTo("idle-spin");
    assertThat(r.options())
        .containsExactly(Map.entry("limit", "500us"), Map.entry("predict", "true"));
  }

  @Test
  void badIdOrOptionNamesWhatWasExpected() {
    assertThatThrownBy(() -> PluginRef.parse("Idle_Spin"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kebab-case")
        .hasMessageContaining("'Idle_Spin'");
    assertThatThrownBy(() -> PluginRef.parse("idle-spin:limit"))
        .hasMessageContaining("expected key=value")
        .hasMessageContaining("'limit'");
  }
}
