package dev.schedlab.lab.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.ScenarioException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The matrix file format and its expansion into cells. */
class MatrixFileTest {
  @TempDir Path tmp;

  private List<Cell> cells(String... lines) throws Exception {
    try (PluginHost host = TestPlugins.host()) {
      return MatrixFixture.cells(new MatrixFixture(tmp).matrix(lines), host);
    }
  }

  @Test
  void pluginKeywordsExpandToTheAllowedCombinations() throws Exception {
    // The two test plugins both override the exclusive hook H1: never together.
    assertThat(cells("plugins: [all]"))
        .extracting(Cell::pluginsLabel)
        .containsExactly("none", "quiet-pick", "throws-in-pick");
    assertThat(cells("plugins: [none, each, all]"))
        .extracting(Cell::pluginsLabel)
        .containsExactly("none", "quiet-pick", "throws-in-pick");
    assertThat(cells("plugins: [scenario, ['quiet-pick:level=1']]"))
        .extracting(Cell::pluginsLabel)
        .containsExactly("scenario", "quiet-pick:level=1");
  }

  @Test
  void productOrderAndLabels() throws Exception {
    List<Cell> c =
        cells(
            "machines: [scenario, kvm-4vcpu]",
            "params: ['-', {label: slow, set: [kernel.hz=100]}, [kernel.hz=250, duration=10ms]]",
            "seeds: [7, 8]");
    assertThat(c).hasSize(12);
    assertThat(c.get(0).describe()).isEqualTo("tiny scenario [-] scenario seed 7");
    assertThat(c.get(3).describe()).isEqualTo("tiny scenario [slow] scenario seed 8");
    assertThat(c.get(5).params().label()).isEqualTo("kernel.hz=250 duration=10ms");
    assertThat(c.get(6).overrides()).containsExactly("machine.preset=kvm-4vcpu");
  }

  @Test
  void explicitCellsAndToolLines() throws Exception {
    Files.writeString(
        tmp.resolve("m.yaml"),
        String.join(
            "\n",
            "set: [duration=50ms]",
            "cells:",
            "  - {workload: tiny.yaml, seed: 3}",
            "  - {workload: {tool: 'hackbench -g 1 -l 5', label: hb}, machine: kvm-4vcpu, plugins: [quiet-pick]}",
            ""));
    new MatrixFixture(tmp);
    try (PluginHost host = TestPlugins.host()) {
      MatrixSpec spec = MatrixFile.load(tmp.resolve("m.yaml"));
      List<Cell> c = MatrixFixture.cells(spec, host);
      assertThat(c)
          .extracting(Cell::describe)
          .containsExactly(
              "tiny scenario [-] scenario seed 3", "hb kvm-4vcpu [-] quiet-pick seed scenario");
      assertThat(c.get(1).scenario().workload().tasks()).isNotEmpty();
      assertThat(c.get(1).scenario().durationNs()).isEqualTo(50_000_000L);
      assertThat(spec.name()).isEqualTo("m");
    }
  }

  @Test
  void badInputIsNamed() throws Exception {
    assertThatThrownBy(() -> cells("seeds: [1]", "colour: red"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("matrix.yaml:4:1: colour: unknown field");
    assertThatThrownBy(() -> cells("plugins: [[quiet-pick, throws-in-pick]]"))
        .hasMessageContaining("plugins[0]: plugin set [quiet-pick, throws-in-pick] is not allowed");
    assertThatThrownBy(() -> cells("plugins: [nope]"))
        .hasMessageMatching(".*matrix.yaml:\\d+:\\d+: plugins\\[0\\]: unknown plugin nope.*");
    assertThatThrownBy(() -> cells("seeds: [1, 1]")).hasMessageContaining("have the same inputs");
    assertThatThrownBy(() -> cells("seeds: [x]"))
        .hasMessageContaining("seeds[0]: expected an integer");
    Files.writeString(tmp.resolve("matrix.yaml"), "workloads: [missing.yaml]\n");
    assertThatThrownBy(() -> MatrixFile.load(tmp.resolve("matrix.yaml")))
        .hasMessageContaining("workloads[0]: no such scenario file");
  }
}
