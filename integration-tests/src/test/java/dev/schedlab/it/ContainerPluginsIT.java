package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Plugin zips in the container image: each loads alone; broken ones are refused, the rest load. */
@ExtendWith(SchedlabImage.class)
class ContainerPluginsIT {
  @Test
  void everyPluginLoadsAloneAndIsListed(@TempDir Path tmp) throws Exception {
    Map<String, Path> zips = PluginZips.all();
    assertThat(zips).containsKeys("sm-idle", "weighted-vtime");
    for (Map.Entry<String, Path> z : zips.entrySet()) {
      Path dir = Files.createDirectories(tmp.resolve(z.getKey()));
      Files.copy(z.getValue(), dir.resolve(z.getValue().getFileName()));
      ContainerCli r =
          ContainerCli.run(
              List.of(new ContainerCli.In(dir, "/work/plugins")),
              Map.of(),
              "plugins",
              "--plugins-dir",
              "/work/plugins");
      assertThat(r.out())
          .as(z.getKey() + "\n" + r.err())
          .contains("plugins in /work/plugins: 1", "  " + z.getKey() + " ", "[loaded]")
          .contains("allowed combinations: 2")
          .doesNotContain("FAILED");
    }
  }

  @Test
  void theImagesOwnPluginsDirectoryHasThemAll() throws Exception {
    ContainerCli r = ContainerCli.run("plugins");
    for (String id : PluginZips.all().keySet()) {
      assertThat(r.out()).contains("  " + id + " ").doesNotContain("FAILED");
    }
  }

  @Test
  void corruptAndIncompatiblePluginsAreRejectedWhileTheOthersLoad(@TempDir Path tmp)
      throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("plugins"));
    Map<String, Path> zips = PluginZips.all();
    for (Path z : zips.values()) {
      Files.copy(z, dir.resolve(z.getFileName()));
    }
    byte[] garbage = new byte[4096];
    new Random(42).nextBytes(garbage);
    Files.write(dir.resolve("broken-plugin.zip"), garbage);
    PluginZips.withProperties(
        zips.get("weighted-vtime"),
        dir.resolve("future-api-plugin.zip"),
        Map.of("plugin.id", "future-api", "plugin.requires", ">=2.0.0"));

    ContainerCli r =
        ContainerCli.run(
            List.of(new ContainerCli.In(dir, "/work/plugins")),
            Map.of(),
            "plugins",
            "--plugins-dir",
            "/work/plugins");
    assertThat(r.out())
        .as(r.err())
        .contains("plugins in /work/plugins: " + (zips.size() + 2))
        .containsPattern("broken-plugin .*\\[FAILED: corrupt or unreadable zip")
        .containsPattern("future-api .*\\[FAILED: incompatible API: plugin.requires '>=2.0.0'");
    for (String id : zips.keySet()) {
      assertThat(r.out()).containsPattern("(?m)^  " + id + " .*\\[loaded\\]$");
    }
  }
}
