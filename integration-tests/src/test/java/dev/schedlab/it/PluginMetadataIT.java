package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every bundled plugin zip (and the example's): {@code schedlab plugins} shows the version and API
 * range of its {@code plugin.properties}, which PF4J enforces, and the plugin loads, so its
 * descriptor states the same (the host refuses a descriptor that disagrees).
 */
class PluginMetadataIT {
  @Test
  void schedlabPluginsShowsWhatPf4jEnforces() throws Exception {
    Map<String, Path> zips = PluginZips.all();
    assertThat(zips)
        .containsKeys(
            "sm-idle",
            "ilb-ipi-avoidance",
            "mm-cid-offload",
            "preempt-auto-voluntary",
            "idle-spin",
            "weighted-vtime");
    Cli cli = Cli.run("plugins", "--plugins-dir", Cli.pluginsDir().toString());
    assertThat(cli.exitCode()).as(cli.err()).isZero();
    for (Map.Entry<String, Path> z : zips.entrySet()) {
      Properties p = PluginZips.properties(z.getValue());
      assertThat(p.getProperty("plugin.version")).isNotBlank().doesNotContain("${");
      assertThat(cli.out())
          .as(z.getKey())
          .containsPattern(
              Pattern.quote("  " + z.getKey() + " " + p.getProperty("plugin.version") + "  ")
                  + ".*\\[loaded]\\R\\s+requires:  "
                  + Pattern.quote(p.getProperty("plugin.requires"))
                  + "\\R");
    }
  }
}
