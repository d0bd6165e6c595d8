package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code schedlab matrix} end to end, in-process. */
class MatrixCommandTest {
  static final String SCENARIO =
      String.join(
          "\n",
          "duration: 20ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload: {tasks: [{name: t, count: 2, program: [{sleep_until: {period: 2ms}}, {user: 200us}]}]}",
          "");

  @Test
  void failedCellsSetTheExitCodeAndTheRestRun(@TempDir Path tmp) throws Exception {
    Files.writeString(tmp.resolve("s.yaml"), SCENARIO);
    Files.writeString(
        tmp.resolve("m.yaml"),
        String.join(
            "\n",
            "workloads: [s.yaml]",
            "params: ['-', {label: bad, set: ['workload.tasks[0].count=-3']}]",
            "seeds: [1, 2, 3]",
            "values: [metric.sched.context_switches]",
            ""));
    Path out = tmp.resolve("out");
    CliTestSupport.Outcome o =
        CliTestSupport.run(
            "matrix", tmp.resolve("m.yaml").toString(), "--out", out.toString(), "-j", "2");
    assertThat(o.code()).as(o.err()).isEqualTo(MatrixCommand.FAILED_BASE + 3);
    assertThat(o.out())
        .contains(
            "6 cells (6 run now, 0 from cells.jsonl), 3 failed",
            "metric.sched.context_switches",
            "FAILED",
            "failed: bad scenario:");
    assertThat(o.err()).contains("cell 6/6 done");
    List<String> csv = Files.readAllLines(out.resolve("summary.csv"));
    assertThat(csv).hasSize(7);
    assertThat(csv.get(0))
        .startsWith("index,run_id,workload,machine,params,plugins,seed,status,digest");
    assertThat(Files.readString(out.resolve("summary.json"))).contains("\"failed\" : 3");

    // Again: nothing runs, the same exit code.
    CliTestSupport.Outcome again =
        CliTestSupport.run("matrix", tmp.resolve("m.yaml").toString(), "--out", out.toString());
    assertThat(again.code()).isEqualTo(13);
    assertThat(again.out()).contains("(0 run now, 6 from cells.jsonl)");
  }

  @Test
  void shardsAndList(@TempDir Path tmp) throws Exception {
    Files.writeString(tmp.resolve("s.yaml"), SCENARIO);
    Files.writeString(tmp.resolve("m.yaml"), "workloads: [s.yaml]\nseeds: {first: 1, count: 5}\n");
    CliTestSupport.Outcome list =
        CliTestSupport.run("matrix", tmp.resolve("m.yaml").toString(), "--list", "--shard", "2/2");
    assertThat(list.code()).isZero();
    assertThat(list.out().lines())
        .hasSize(2)
        .allMatch(l -> l.matches("\\s+[13]  [0-9a-f]{16}  s .*"));
    CliTestSupport.Outcome bad =
        CliTestSupport.run("matrix", tmp.resolve("m.yaml").toString(), "--shard", "3/2");
    assertThat(bad.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(bad.err()).contains("--shard: shard must be i/N");
  }

  @Test
  void exampleMatrixRuns(@TempDir Path tmp) {
    CliTestSupport.Outcome o =
        CliTestSupport.run("matrix", "../examples/matrix.yaml", "--out", tmp.toString(), "-q");
    assertThat(o.code()).as(o.err() + o.out()).isZero();
    assertThat(o.out()).contains("matrix example:", " 0 failed");
    assertThat(tmp.resolve("summary.csv")).exists();
  }

  @Test
  void exitCodeIsCapped() {
    assertThat(MatrixCommand.exitCode(0)).isZero();
    assertThat(MatrixCommand.exitCode(1)).isEqualTo(11);
    assertThat(MatrixCommand.exitCode(500)).isEqualTo(110);
  }
}
