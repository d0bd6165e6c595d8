package dev.schedlab.lab.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.plugin.PluginHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Run ids: the same inputs give the same id, any changed input another. */
class RunIdTest {
  @TempDir Path tmp;

  private List<String> ids(String... lines) throws Exception {
    try (PluginHost host = TestPlugins.host()) {
      return MatrixFixture.cells(new MatrixFixture(tmp).matrix(lines), host).stream()
          .map(Cell::runId)
          .toList();
    }
  }

  @Test
  void stableAcrossPlansAndIndependentOfLayout() throws Exception {
    List<String> a = ids("seeds: [1, 2]");
    assertThat(a).hasSize(2).doesNotHaveDuplicates().allMatch(id -> id.matches("[0-9a-f]{16}"));
    assertThat(ids("seeds: [1, 2]")).isEqualTo(a);
    // Another order of the axis: same ids, other positions.
    assertThat(ids("seeds: [2, 1]")).containsExactly(a.get(1), a.get(0));
    // Comments, formatting and key order of the scenario do not count.
    String reordered =
        "workload:\n  tasks:\n    - {count: 2, name: ticker, program: [{sleep_until: {period: 2ms}},"
            + " {user: 200us}]}\nmachine: {threads_per_core: 1, preset: small-x86, sockets: 1, cores_per_socket: 2}\n"
            + "duration: 20ms   # the same\n";
    Files.writeString(tmp.resolve("tiny.yaml"), reordered);
    assertThat(ids("seeds: [1, 2]")).isEqualTo(a);
  }

  @Test
  void anyChangedInputChangesTheId() throws Exception {
    String base = ids("seeds: [1]").get(0);
    assertThat(ids("seeds: [2]").get(0)).as("seed").isNotEqualTo(base);
    assertThat(ids("seeds: [1]", "set: [duration=30ms]").get(0))
        .as("global set")
        .isNotEqualTo(base);
    assertThat(ids("seeds: [1]", "params: [[kernel.hz=250]]").get(0))
        .as("params")
        .isNotEqualTo(base);
    assertThat(ids("seeds: [1]", "machines: [kvm-4vcpu]").get(0)).as("machine").isNotEqualTo(base);
    String plugin = ids("seeds: [1]", "plugins: [quiet-pick]").get(0);
    assertThat(plugin).as("plugin").isNotEqualTo(base);
    assertThat(ids("seeds: [1]", "plugins: ['quiet-pick:level=2']").get(0))
        .as("plugin options")
        .isNotEqualTo(plugin);
    assertThat(ids("seeds: [1]", "plugins: [none]").get(0))
        .as("no plugins vs the scenario's")
        .isNotEqualTo(base);
    Files.writeString(tmp.resolve("tiny.yaml"), MatrixFixture.SCENARIO.replace("200us", "201us"));
    assertThat(ids("seeds: [1]").get(0)).as("scenario content").isNotEqualTo(base);

    MatrixSpec spec = new MatrixFixture(tmp).matrix("seeds: [1]");
    assertThat(MatrixPlan.cells(spec, List.of(List.of()), "9.9.9").get(0).runId())
        .as("engine version")
        .isNotEqualTo(MatrixPlan.cells(spec, List.of(List.of()), "0.1.0").get(0).runId());
  }
}
