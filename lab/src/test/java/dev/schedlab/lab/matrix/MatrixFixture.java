package dev.schedlab.lab.matrix;

import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.ScenarioException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A tiny scenario and matrix files around it, in a temporary directory. */
final class MatrixFixture {
  static final String SCENARIO =
      String.join(
          "\n",
          "# two CPUs, two tasks",
          "duration: 20ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload:",
          "  tasks:",
          "    - {name: ticker, count: 2, program: [{sleep_until: {period: 2ms}}, {user: 200us}]}",
          "");

  final Path dir;

  MatrixFixture(Path dir) throws IOException {
    this.dir = dir;
    if (!Files.exists(dir.resolve("tiny.yaml"))) {
      Files.writeString(dir.resolve("tiny.yaml"), SCENARIO);
    }
  }

  /** Writes {@code matrix.yaml} with the given lines after {@code workloads: [tiny.yaml]}. */
  MatrixSpec matrix(String... lines) throws IOException, ScenarioException {
    List<String> all = new ArrayList<>(List.of("name: t", "workloads: [tiny.yaml]"));
    all.addAll(List.of(lines));
    Path f = dir.resolve("matrix.yaml");
    Files.writeString(f, String.join("\n", all) + "\n");
    return MatrixFile.load(f);
  }

  static List<Cell> cells(MatrixSpec spec, PluginHost host) throws ScenarioException {
    return MatrixPlan.cells(spec, host.allowedCombinations());
  }
}
