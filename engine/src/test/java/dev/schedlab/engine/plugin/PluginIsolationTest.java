package dev.schedlab.engine.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.plugin.testplugins.ConfigurablePlugin;
import dev.schedlab.engine.plugin.testplugins.ExitingPlugin;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin;
import dev.schedlab.engine.plugin.testplugins.LoopingPlugin;
import dev.schedlab.engine.plugin.testplugins.ReflectingPlugin;
import dev.schedlab.engine.plugin.testplugins.ThreadStartingPlugin;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pf4j.Extension;
import org.pf4j.PluginWrapper;

/** What a plugin's code may see and do: its class loader, and the load-time code check. */
class PluginIsolationTest {
  @TempDir Path dir;

  private static PluginStatus status(PluginHost host, String id) {
    return host.plugins().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
  }

  @Test
  void aPluginsClassLoaderSeesOnlyTheJdkTheApiAndPf4j() throws Exception {
    Path plugin = PluginZip.plugin("alpha").explodeInto(dir);
    SchedlabPluginManager manager = new SchedlabPluginManager(dir);
    try {
      String id = manager.loadPlugin(plugin);
      PluginWrapper w = manager.getPlugin(id);
      ClassLoader loader = w.getPluginClassLoader();
      assertThat(loader.loadClass(SchedulingClass.class.getName())).isSameAs(SchedulingClass.class);
      assertThat(loader.loadClass(Extension.class.getName())).isSameAs(Extension.class);
      assertThat(loader.loadClass("java.util.List")).isSameAs(List.class);
      assertThat(loader.loadClass("java.sql.Timestamp"))
          .isNotNull(); // JDK modules beyond java.base
      Class<?> own = loader.loadClass(ConfigurablePlugin.class.getName());
      assertThat(own.getClassLoader()).isSameAs(loader);
      for (String hidden :
          List.of(
              "dev.schedlab.engine.Simulation",
              "dev.schedlab.engine.core.Kernel",
              "dev.schedlab.classes.FairClass",
              "com.google.inject.Guice",
              "com.fasterxml.jackson.databind.ObjectMapper",
              "org.slf4j.LoggerFactory",
              "org.junit.jupiter.api.Test")) {
        assertThatThrownBy(() -> loader.loadClass(hidden))
            .as(hidden)
            .isInstanceOf(ClassNotFoundException.class);
        assertThat(loader.getResource(hidden.replace('.', '/') + ".class")).as(hidden).isNull();
      }
      assertThat(loader.getResource("dev/schedlab/api/SchedulingClass.class")).isNotNull();
    } finally {
      manager.unloadPlugins();
    }
  }

  @Test
  void pluginsThatWouldEndTheJvmStartThreadsOrBreakEncapsulationAreRefusedAtLoad()
      throws Exception {
    PluginZip.of("exiting", ExitingPlugin.class).zipInto(dir);
    PluginZip.of("thread-starting", ThreadStartingPlugin.class).zipInto(dir);
    PluginZip.of("reflecting", ReflectingPlugin.class).zipInto(dir);
    PluginZip.plugin("alpha").zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "alpha").loaded()).isTrue();
      assertThat(status(host, "exiting").problem())
          .startsWith("refused by the plugin code check")
          .contains(ExitingPlugin.class.getName() + " uses java.lang.System.exit (ends the JVM)");
      assertThat(status(host, "thread-starting").problem())
          .contains(
              " uses java.lang.Thread.<init> (starts threads)",
              " uses java.lang.Thread.start (starts threads)",
              " uses java.util.concurrent.Executors (starts threads)");
      assertThat(status(host, "reflecting").problem())
          .contains(
              ReflectingPlugin.class.getName()
                  + " uses java.lang.reflect.Field.setAccessible (breaks encapsulation)");
      assertThatThrownBy(() -> host.extensionsFor(List.of(new PluginRef("exiting", Map.of()))))
          .isInstanceOf(PluginException.class)
          .hasMessageContaining("plugin exiting did not load (refused by the plugin code check");
    }
  }

  @Test
  void theCheckPassesAPluginThatOnlyMisbehavesAtRunTime() throws Exception {
    PluginZip.of("looping", LoopingPlugin.class).zipInto(dir);
    try (PluginHost host = PluginHost.open(dir)) {
      assertThat(status(host, "looping").loaded()).as(status(host, "looping").problem()).isTrue();
    }
    assertThat(PluginCodeCheck.problems(PluginZip.of("x", FaultPlugin.class).explodeInto(dir)))
        .isEmpty();
  }
}
