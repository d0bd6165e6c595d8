package dev.schedlab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.PluginRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginLinesTest {
  @Test
  void parsesOptionLine() {
    assertThat(PluginLines.parse(List.of("ilb-ipi")))
        .containsExactly(new PluginRef("ilb-ipi", Map.of()));
    assertThat(PluginLines.parse(List.of("ilb-ipi:kick=next;delay=5us")).get(0).options())
        .containsExactly(Map.entry("delay", "5us"), Map.entry("kick", "next"));
    assertThatThrownBy(() -> PluginLines.check("x:novalue")).hasMessageContaining("key=value");
    assertThat(PluginLines.label(List.of("a:k=1", "b"))).isEqualTo("a+b");
  }

  @Test
  void mergeAppendsNewAndOverridesKnownIds() {
    List<PluginRef> scenario =
        List.of(new PluginRef("a", Map.of("k", "1", "j", "2")), new PluginRef("b", Map.of()));
    List<PluginRef> merged =
        PluginLines.merge(
            scenario, List.of(new PluginRef("c", Map.of()), new PluginRef("a", Map.of("k", "9"))));
    assertThat(merged).extracting(PluginRef::id).containsExactly("a", "b", "c");
    assertThat(merged.get(0).options()).isEqualTo(Map.of("k", "9", "j", "2"));
  }
}
