package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.engine.plugin.PluginHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A matrix over every plugin set the compatibility rules allow runs to completion in the container,
 * and its cells have the same run ids and digests as the same matrix run on the host: determinism
 * across environments (another JVM build, no host libraries but libc & co., a FROM scratch root).
 */
@ExtendWith(SchedlabImage.class)
class ContainerMatrixIT {
  static final String SCENARIO =
      String.join(
          "\n",
          "duration: 100ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 2}",
          "workload:",
          "  tasks:",
          "    - {name: ext, count: 3, policy: ext, program: [{user: 300us}, {mark: ext_ops}, {sleep: 200us}]}",
          "    - {name: ticker, count: 2, program: [{sleep_until: {period: 1ms}}, {user: 100us}]}",
          "");
  static final String MATRIX =
      String.join(
          "\n",
          "name: it",
          "set: [duration=40ms]",
          "workloads:",
          "  - mixed.yaml",
          "  - {tool: 'ipistorm numipi=300 single=1 offset=1 cpulist=1 wait=1', label: ipistorm}",
          "plugins: [all]",
          "seeds: [1, 2]",
          "");

  @Test
  void matrixOverAllowedPluginSetsMatchesTheHost(@TempDir Path tmp) throws Exception {
    Path m = Files.createDirectories(tmp.resolve("m"));
    Files.writeString(m.resolve("mixed.yaml"), SCENARIO);
    Files.writeString(m.resolve("matrix.yaml"), MATRIX);
    Path fromContainer = Files.createDirectories(tmp.resolve("container"));
    Map<String, Path> out = new LinkedHashMap<>();
    out.put("/work/out/cells.jsonl", fromContainer.resolve("cells.jsonl"));
    out.put("/work/out/summary.csv", fromContainer.resolve("summary.csv"));
    ContainerCli c =
        ContainerCli.run(
            List.of(new ContainerCli.In(m, "/work/m")),
            out,
            "matrix",
            "/work/m/matrix.yaml",
            "--out",
            "/work/out");
    assertThat(c.out()).as(c.err()).contains(" 0 failed");

    Cli host =
        Cli.run(
            "matrix",
            m.resolve("matrix.yaml").toString(),
            "--out",
            tmp.resolve("host").toString(),
            "--plugins-dir",
            Cli.pluginsDir().toString(),
            "-q");
    assertThat(host.exitCode()).as(host.err() + host.out()).isZero();

    Map<String, String> inContainer = digests(fromContainer.resolve("cells.jsonl"));
    Map<String, String> onHost = digests(tmp.resolve("host").resolve("cells.jsonl"));
    int allowedSets;
    try (PluginHost h = PluginHost.open(Cli.pluginsDir())) {
      allowedSets = h.allowedCombinations().size();
    }
    assertThat(allowedSets)
        .as("sm-idle and weighted-vtime may run together")
        .isGreaterThanOrEqualTo(4);
    assertThat(inContainer).hasSize(2 * 2 * allowedSets).isEqualTo(onHost);
    assertThat(Files.readAllLines(fromContainer.resolve("summary.csv")))
        .hasSize(1 + inContainer.size());
    // The plugin sets made a difference somewhere: 2 workloads x 2 seeds give more than 4 digests.
    assertThat(
            inContainer.values().stream().map(v -> v.substring(v.lastIndexOf(' ') + 1)).distinct())
        .hasSizeGreaterThan(4);
  }

  static Map<String, String> digests(Path jsonl) throws Exception {
    Map<String, String> out = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(jsonl)) {
      JsonNode n = json.readTree(line);
      assertThat(n.path("status").asText()).as(line).isEqualTo("ok");
      out.put(
          n.path("run_id").asText(), n.path("plugins").asText() + " " + n.path("digest").asText());
    }
    return out;
  }
}
