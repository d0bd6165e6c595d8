package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.cli.CliTestSupport.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** import-trace and replay through the CLI, on a trace schedlab wrote itself. */
class TraceCommandsTest {
  private static final String MACHINE =
      "machine: {sockets: 1, cores_per_socket: 2,"
          + " threads_per_core: 1, idle_states: poll-only}\n";
  private static final String SCENARIO =
      "duration: 20ms\n" + MACHINE + "workload: {tools: [{perf: \"bench sched pipe -l 300\"}]}\n";

  @TempDir Path dir;
  Path trace;
  Path machine;

  @BeforeEach
  void recordATrace() throws Exception {
    Path s = dir.resolve("s.yaml");
    Files.writeString(s, SCENARIO);
    machine = dir.resolve("machine.yaml");
    Files.writeString(machine, MACHINE);
    trace = dir.resolve("pipe.trace");
    Outcome o = run("run", s.toString(), "--trace", trace.toString());
    assertThat(o.code()).as(o.err()).isZero();
  }

  @Test
  void importTraceWritesAScenarioThatValidatesAndRuns() throws Exception {
    Path out = dir.resolve("sub").resolve("imported.yaml");
    Files.createDirectories(out.getParent());
    Outcome o =
        run(
            "import-trace",
            trace.toString(),
            "--machine",
            machine.toString(),
            "--out",
            out.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.err()).contains("wrote " + out, "(2 tasks");
    String text = Files.readString(out);
    assertThat(text)
        .contains(
            "machine: {file: \"../machine.yaml\", noise: {bins: []}}", // the trace has the noise
            "params: {bg.timer_rate_milli: 0}", // and the background work
            "{wake: {waitq: \"perf/b@", // a pipe write before the writer's read: WF_SYNC
            ", sync: true}}",
            "{block: \"perf/a@");
    assertThat(run("validate", out.toString()).code()).isZero();
    Outcome r = run("run", out.toString());
    assertThat(r.code()).as(r.err()).isZero();
  }

  @Test
  void replayPrintsTheTraceBesideTheModelAndJsonHasEveryTask() throws Exception {
    Outcome text = run("replay", trace.toString(), "--machine", machine.toString());
    assertThat(text.code()).as(text.err()).isZero();
    assertThat(text.out())
        .contains(
            "trace      ",
            "(ftrace, 2 CPUs",
            "2 of 2 programs finished",
            "perf/a@",
            "total",
            "per CPU (trace / model)");
    Path report = dir.resolve("report.json");
    Outcome json =
        run(
            "replay",
            trace.toString(),
            "--machine",
            machine.toString(),
            "--format",
            "json",
            "--out",
            report.toString());
    assertThat(json.code()).as(json.err()).isZero();
    JsonNode n = new ObjectMapper().readTree(json.out());
    assertThat(n.get("trace").get("cpus").asInt()).isEqualTo(2);
    assertThat(n.get("tasks")).hasSize(2);
    JsonNode a = n.get("tasks").get(0);
    long traced = a.get("trace").get("runtime_ns").asLong();
    long model = a.get("model").get("runtime_ns").asLong();
    assertThat((double) model)
        .isCloseTo(traced, org.assertj.core.data.Percentage.withPercentage(1));
    assertThat(a.get("model").get("wake_steps").asLong())
        .isEqualTo(a.get("trace").get("wakeups_by_task").asLong());
    assertThat(n.get("cpus")).hasSize(2);
    assertThat(new ObjectMapper().readTree(Files.readString(report))).isEqualTo(n);
  }

  @Test
  void aMalformedLineIsExitCode2NamingItAndNothingIsWritten() throws Exception {
    String text = Files.readString(trace);
    int at = text.indexOf("prev_pid=", text.indexOf("sched_switch", 2000));
    Files.writeString(trace, text.substring(0, at) + "prev_pid=x" + text.substring(at + 10));
    long line = text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
    Path out = dir.resolve("never.yaml");
    Outcome o = run("import-trace", trace.toString(), "--out", out.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains(trace + ":" + line + ": sched_switch: cannot read the fields");
    assertThat(out).doesNotExist();
    assertThat(run("replay", trace.toString()).code()).isEqualTo(2);
  }

  @Test
  void aMachineWithFewerCpusThanTheTraceIsExitCode2() throws Exception {
    Path small = dir.resolve("one.yaml");
    Files.writeString(small, "machine: {sockets: 1, cores_per_socket: 1, threads_per_core: 1}\n");
    Outcome o = run("import-trace", trace.toString(), "--machine", small.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("the trace has 2 CPUs but the machine file", "has 1");
  }

  @Test
  void aMissingTraceIsExitCode2() {
    Outcome o = run("import-trace", dir.resolve("nope.txt").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("nope.txt: no such file");
  }
}
