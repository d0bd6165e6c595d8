package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.PluginRef;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PluginOptionLineTest {
  @Test
  void parsesOptionLine() {
    assertThat(PluginOptionLine.parse("ilb-ipi")).isEqualTo(new PluginRef("ilb-ipi", Map.of()));
    assertThat(PluginOptionLine.parse("ilb-ipi:kick=next;delay=5us").options())
        .containsExactly(Map.entry("delay", "5us"), Map.entry("kick", "next"));
    assertThatThrownBy(() -> PluginOptionLine.parse("x:novalue")).hasMessageContaining("key=value");
  }

  @Test
  void mergeAppendsNewAndOverridesKnownIds() {
    List<PluginRef> scenario =
        List.of(new PluginRef("a", Map.of("k", "1", "j", "2")), new PluginRef("b", Map.of()));
    List<PluginRef> merged =
        PluginOptionLine.merge(
            scenario, List.of(new PluginRef("c", Map.of()), new PluginRef("a", Map.of("k", "9"))));
    assertThat(merged).extracting(PluginRef::id).containsExactly("a", "b", "c");
    assertThat(merged.get(0).options()).isEqualTo(Map.of("k", "9", "j", "2"));
  }

  @Test
  void pluginsDirPrecedence() {
    Properties props = new Properties();
    props.setProperty(PluginsDir.PROPERTY, "/p");
    Map<String, String> env = Map.of(PluginsDir.ENV, "/e");
    assertThat(PluginsDir.resolve(Path.of("/o"), env, props)).isEqualTo(Path.of("/o"));
    assertThat(PluginsDir.resolve(null, env, props)).isEqualTo(Path.of("/e"));
    assertThat(PluginsDir.resolve(null, Map.of(), props)).isEqualTo(Path.of("/p"));
    assertThat(PluginsDir.resolve(null, Map.of(), new Properties())).isNull();
  }
}
