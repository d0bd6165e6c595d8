package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.cli.CliTestSupport.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** run with tools (text and JSON reports), compare and reproduce through the CLI. */
class WorkloadCommandsTest {
  static final String SCENARIO =
      String.join(
          "\n",
          "duration: 20ms",
          "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1, idle_states: poll-only}",
          "workload:",
          "  tools:",
          "    - cyclictest: \"-i 200 -t\"",
          "    - stress-ng: \"--cyclic 1\"",
          "");

  @TempDir Path dir;

  @Test
  void runPrintsToolReportsAndJsonGainsReports() throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, SCENARIO);
    Outcome text = run("run", f.toString());
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains(
            "$ cyclictest -i 200 -t",
            "T: 0 (",
            "$ stress-ng --cyclic 1",
            "cyclic: latency percentiles:");
    Outcome json = run("run", f.toString(), "--format", "json");
    JsonNode n = new ObjectMapper().readTree(json.out());
    assertThat(n.has("digest")).isTrue();
    assertThat(n.get("metrics").isObject()).isTrue();
    assertThat(n.get("reports").get("cyclictest").get("report").get("threads")).hasSize(2);
    assertThat(
            n.get("reports")
                .get("stress-ng")
                .get("report")
                .get("cyclic")
                .get("percentiles")
                .has("95.40"))
        .isTrue();
  }

  @Test
  void unknownToolOptionIsExitCode2WithLocation() throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, SCENARIO.replace("-i 200 -t", "-i 200 --what"));
    Outcome o = run("run", f.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("bad.yaml:5", "workload.tools[0].cyclictest", "--what");
  }

  @Test
  void compareJsonParsesAndNoChangeConfigHasIdenticalDigests() throws Exception {
    Path f = dir.resolve("s.yaml");
    Files.writeString(f, SCENARIO);
    Outcome o =
        run(
            "compare",
            f.toString(),
            "--config",
            "same:kernel.hz=1000",
            "--seeds",
            "2",
            "--format",
            "json",
            "-q");
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode n = new ObjectMapper().readTree(o.out());
    assertThat(n.get("same_digests_as_baseline").get("same").asBoolean()).isTrue();
    assertThat(
            n.get("metrics").get("report.cyclictest.max").get("same").get("normalised").asDouble())
        .isEqualTo(1.0);
    Outcome t =
        run(
            "compare",
            f.toString(),
            "--config",
            "same:kernel.hz=1000",
            "--seeds",
            "2",
            "--metric",
            "report.cyclictest.max");
    assertThat(t.out()).contains("| metric", "| baseline", "| same", "report.cyclictest.max");
    assertThat(t.err()).contains("compare: run 4/4 done");
  }

  @Test
  void reproduceRunsTheBundledExperimentAsJson() throws Exception {
    Path scenarios = Path.of("..", "scenarios");
    Outcome o =
        run(
            "reproduce",
            "kvm-cyclictest-preempt",
            "--dir",
            scenarios.toString(),
            "--seeds",
            "1",
            "--format",
            "json",
            "-q");
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode n = new ObjectMapper().readTree(o.out());
    assertThat(n.get("experiment").asText()).isEqualTo("kvm-cyclictest-preempt");
    assertThat(n.get("columns")).hasSize(4);
    assertThat(n.get("rows").get(0).get("label").asText()).isEqualTo("max latency");
    assertThat(n.get("rows").get(0).get("simulated")).hasSize(4);
    assertThat(n.get("rows").get(0).get("published").get(0).isNull()).isTrue();
    assertThat(run("reproduce", "nope", "--dir", scenarios.toString()).code()).isEqualTo(2);
  }
}
