package dev.schedlab.lab.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.plugin.PluginHost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --shard i/N}: disjoint shares that together hold every cell. */
class ShardTest {
  @Test
  void sharesPartitionTheCellsExactly(@TempDir Path tmp) throws Exception {
    MatrixSpec spec =
        new MatrixFixture(tmp)
            .matrix(
                "params: ['-', [kernel.hz=250], [kernel.hz=100]]",
                "plugins: [none, all]",
                "seeds: {first: 1, count: 3}");
    try (PluginHost host = TestPlugins.host()) {
      List<Cell> all = MatrixFixture.cells(spec, host);
      assertThat(all).hasSize(3 * 3 * 3);
      for (int n = 1; n <= all.size() + 2; n++) {
        List<String> union = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          List<Cell> share = new Shard(i, n).of(all);
          assertThat(share.size()).isBetween(all.size() / n, all.size() / n + 1);
          share.forEach(c -> union.add(c.runId()));
        }
        assertThat(union)
            .as("union of %d shares", n)
            .hasSameSizeAs(all)
            .containsExactlyInAnyOrderElementsOf(all.stream().map(Cell::runId).toList());
        assertThat(new HashSet<>(union)).hasSameSizeAs(union);
      }
    }
  }

  @Test
  void parsesAndRejects() {
    assertThat(Shard.parse("2/4")).isEqualTo(new Shard(2, 4));
    assertThat(Shard.parse(" 1 / 1 ")).isEqualTo(Shard.ALL);
    for (String bad : new String[] {"0/4", "5/4", "1/0", "2", "a/b", "1/2/3", ""}) {
      assertThatThrownBy(() -> Shard.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("i/N");
    }
  }
}
