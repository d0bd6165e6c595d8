package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PluginOptionLineTest {
  @Test
  void checksOptionLine() {
    assertThat(new PluginOptionLine().convert("ilb-ipi:kick=next;delay=5us"))
        .isEqualTo("ilb-ipi:kick=next;delay=5us");
    assertThatThrownBy(() -> new PluginOptionLine().convert("x:novalue"))
        .isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("key=value");
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
