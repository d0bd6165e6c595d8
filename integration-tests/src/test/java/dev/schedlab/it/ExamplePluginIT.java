package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The out-of-tree example plugin, built against the API jar alone, loads from a plugins directory
 * and schedules the scenario's SCHED_EXT tasks.
 */
class ExamplePluginIT {
  private static final String SCENARIO =
      String.join(
          "\n",
          "duration: 100ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload:",
          "  tasks:",
          "    - {name: ext, count: 4, policy: ext, program: [{user: 300us}, {mark: ext_ops}, {sleep: 200us}]}",
          "");

  @Test
  void pluginIsListed() {
    Cli cli = Cli.run("plugins", "--plugins-dir", Cli.pluginsDir().toString());
    assertThat(cli.exitCode()).as(cli.err()).isZero();
    assertThat(cli.out()).contains("weighted-vtime").contains("wvtime");
  }

  @Test
  void pluginLoadsAndSchedulesExtTasks(@TempDir Path dir) throws Exception {
    Path scenario = dir.resolve("ext.yaml");
    Files.writeString(scenario, SCENARIO);
    Cli with =
        Cli.run(
            "run",
            scenario.toString(),
            "--format",
            "json",
            "--plugins-dir",
            Cli.pluginsDir().toString(),
            "--plugin",
            "weighted-vtime");
    assertThat(with.exitCode()).as(with.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(with.out());
    assertThat(r.path("plugins").toString()).contains("weighted-vtime");
    assertThat(r.path("metrics").path("mark.ext_ops").asLong()).isGreaterThan(100);

    // Without the plugin the same tasks fall back to the fair class: a different event stream.
    Cli without = Cli.run("run", scenario.toString(), "--format", "json");
    assertThat(without.exitCode()).as(without.err()).isZero();
    JsonNode base = new ObjectMapper().readTree(without.out());
    assertThat(r.path("digest").asText()).isNotEqualTo(base.path("digest").asText());
  }
}
