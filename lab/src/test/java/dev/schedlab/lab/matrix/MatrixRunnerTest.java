package dev.schedlab.lab.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin.Fault;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Running, resuming and failing cells. */
class MatrixRunnerTest {
  @TempDir Path tmp;

  private List<Cell> ran(MatrixSpec spec, List<Cell> cells, PluginHost host, Path out, int jobs)
      throws Exception {
    List<Cell> ran = Collections.synchronizedList(new ArrayList<>());
    try (CellLog log = CellLog.open(out)) {
      MatrixRunner.run(spec.name(), cells, host, log, jobs, false, (d, t, c, r) -> ran.add(c));
    }
    return ran;
  }

  @Test
  void resumeAfterAnInterruptionRunsOnlyTheMissingCells() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    MatrixSpec spec = f.matrix("seeds: {first: 1, count: 6}");
    try (PluginHost host = PluginHost.builtinOnly()) {
      List<Cell> cells = MatrixFixture.cells(spec, host);
      Path out = tmp.resolve("out");
      assertThat(ran(spec, cells, host, out, 2)).hasSize(6);
      Path jsonl = out.resolve(CellLog.FILE);
      List<String> lines = Files.readAllLines(jsonl);
      Map<String, String> digests = digests(out);

      // Interrupted after 2 cells, the third line half written.
      Files.write(
          jsonl,
          (String.join("\n", lines.subList(0, 2)) + "\n" + lines.get(2).substring(0, 40))
              .getBytes(StandardCharsets.UTF_8));
      Set<String> kept =
          lines.subList(0, 2).stream().map(MatrixRunnerTest::runId).collect(Collectors.toSet());
      List<Cell> again = ran(spec, cells, host, out, 2);
      assertThat(again).hasSize(4);
      assertThat(again).extracting(Cell::runId).doesNotContainAnyElementsOf(kept);
      assertThat(Files.readAllLines(jsonl)).hasSize(6);
      assertThat(digests(out)).isEqualTo(digests);

      // Nothing left to do: a third invocation runs nothing.
      assertThat(ran(spec, cells, host, out, 2)).isEmpty();
    }
  }

  @Test
  void failingCellsAreRecordedAndTheOthersRun() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    MatrixSpec spec =
        f.matrix(
            "params: ['-', {label: bad, set: ['workload.tasks[0].count=-3']}]",
            "plugins: [none, throws-in-pick]",
            "seeds: [1, 2]");
    try (PluginHost host = TestPlugins.host()) {
      List<Cell> cells = MatrixFixture.cells(spec, host);
      assertThat(cells).hasSize(8);
      MatrixRunner.Outcome o;
      try (CellLog log = CellLog.open(tmp.resolve("out"))) {
        o = MatrixRunner.run("t", cells, host, log, 2, false, MatrixRunner.Listener.NONE);
      }
      // Good params: 2 cells ok, 2 completed after ejecting the plugin; bad params: 4 fail to load.
      assertThat(o.failed()).isEqualTo(4);
      assertThat(o.results().values()).filteredOn(CellResult::ok).hasSize(4);
      assertThat(o.results().values())
          .extracting(CellResult::error)
          .filteredOn(e -> e != null)
          .allMatch(e -> e.startsWith("bad scenario:") && e.contains("count"));
      assertThat(o.results().values())
          .filteredOn(r -> r.status().equals("ejected"))
          .hasSize(2)
          .allMatch(
              r ->
                  r.ejections().get(0).contains("plugin throws-in-pick ejected")
                      && r.ejections().get(0).contains("boom"));
      String jsonl = Files.readString(tmp.resolve("out").resolve(CellLog.FILE));
      assertThat(jsonl.lines())
          .hasSize(8)
          .filteredOn(l -> l.contains("\"status\":\"failed\""))
          .hasSize(4);
      assertThat(jsonl.lines())
          .filteredOn(l -> l.contains("\"status\":\"ejected\""))
          .hasSize(2)
          .allMatch(l -> l.contains("\"ejections\":[\"plugin throws-in-pick ejected"));
      try (CellLog again = CellLog.open(tmp.resolve("out"))) {
        assertThat(again.finished().values())
            .filteredOn(r -> r.status().equals("ejected"))
            .hasSize(2);
      }
    }
  }

  @Test
  void retryFailedRunsTheFailedCellsAgain() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    MatrixSpec spec = f.matrix("params: ['-', {label: bad, set: ['workload.tasks[0].count=-3']}]");
    try (PluginHost host = TestPlugins.host();
        CellLog log = CellLog.open(tmp.resolve("out"))) {
      List<Cell> cells = MatrixFixture.cells(spec, host);
      MatrixRunner.run("t", cells, host, log, 1, false, MatrixRunner.Listener.NONE);
      MatrixRunner.Outcome o =
          MatrixRunner.run("t", cells, host, log, 1, true, MatrixRunner.Listener.NONE);
      assertThat(o.ran()).isEqualTo(1);
      assertThat(o.reused()).isEqualTo(1);
      assertThat(o.failed()).isEqualTo(1);
    }
  }

  @Test
  void aCellWhosePluginNeverReturnsFailsAloneAndTheOthersGoOn() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    Fault loops = Fault.LOOPS_FOREVER;
    MatrixSpec spec =
        f.matrix(
            "set: [kernel.params.plugin.hook_budget=200ms,"
                + " 'workload.tasks[0].program[1].user=1500us']",
            "plugins: [none, " + loops.id() + "]",
            "seeds: [1, 2, 3]");
    FaultPlugin.RELEASE_LOOPS.set(false);
    try (PluginHost host = PluginHost.inProcess(loops.plugin());
        CellLog log = CellLog.open(tmp.resolve("out"))) {
      List<Cell> cells = MatrixFixture.cells(spec, host);
      // One job: every cell after a stuck one still runs, on the worker that replaces it.
      MatrixRunner.Outcome o =
          MatrixRunner.run("t", cells, host, log, 1, false, MatrixRunner.Listener.NONE);
      assertThat(o.failed()).isEqualTo(3);
      assertThat(o.results().values()).filteredOn(CellResult::ok).hasSize(3);
      assertThat(o.results().values())
          .extracting(CellResult::error)
          .filteredOn(e -> e != null)
          .allMatch(
              e ->
                  e.startsWith(
                      "run failed: plugin "
                          + loops.id()
                          + " did not return from hook H5 onTick within its wall-clock budget of 0.200 s"));
    } finally {
      FaultPlugin.RELEASE_LOOPS.set(true);
    }
  }

  @Test
  void parallelCellsGiveTheDigestsOfSerialOnes() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    MatrixSpec spec = f.matrix("plugins: [none, quiet-pick]", "seeds: {first: 1, count: 3}");
    try (PluginHost host = TestPlugins.host()) {
      List<Cell> cells = MatrixFixture.cells(spec, host);
      ran(spec, cells, host, tmp.resolve("serial"), 1);
      ran(spec, cells, host, tmp.resolve("parallel"), 3);
      assertThat(digests(tmp.resolve("parallel")))
          .isEqualTo(digests(tmp.resolve("serial")))
          .hasSize(6);
    }
  }

  @Test
  void aLogLineIsOnDiskBeforeTheNextCellIsReported() throws Exception {
    MatrixFixture f = new MatrixFixture(tmp);
    MatrixSpec spec = f.matrix("seeds: [1, 2, 3]");
    Path jsonl = tmp.resolve("out").resolve(CellLog.FILE);
    List<Long> linesSeen = new ArrayList<>();
    try (PluginHost host = PluginHost.builtinOnly();
        CellLog log = CellLog.open(tmp.resolve("out"))) {
      MatrixRunner.run(
          "t",
          MatrixFixture.cells(spec, host),
          host,
          log,
          2,
          false,
          (d, t, c, r) -> linesSeen.add(lineCount(jsonl)));
    }
    assertThat(linesSeen).containsExactly(1L, 2L, 3L);
  }

  private static long lineCount(Path p) {
    try {
      return Files.readAllLines(p).size();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String runId(String line) {
    try {
      return CellResult.fromJsonLine(line).runId();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static Map<String, String> digests(Path out) throws Exception {
    Map<String, String> m = new TreeMap<>();
    for (String l : Files.readAllLines(out.resolve(CellLog.FILE))) {
      CellResult r = CellResult.fromJsonLine(l);
      m.put(r.runId(), r.digest());
    }
    return m;
  }
}
