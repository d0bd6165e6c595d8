package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code schedlab replay --plugin}: a trace recorded on this project's machine kind, replayed by
 * the model and by the model with a patch plugin loaded from its zip, reported side by side.
 */
class TraceReplayIT {
  private static final Path REAL =
      Cli.root().resolve("trace-import/src/test/resources/dev/schedlab/traceimport/real");

  @Test
  void aPluginsReplayIsReportedBesideTheModels() throws Exception {
    Cli cli =
        Cli.run(
            "replay",
            REAL.resolve("pipe.trace-cmd.txt").toString(),
            "--machine",
            REAL.resolve("machine.yaml").toString(),
            "--format",
            "json",
            "-q",
            "--plugins-dir",
            Cli.pluginsDir().toString(),
            "--plugin",
            "idle-spin");
    assertThat(cli.exitCode()).as(cli.err()).isZero();
    JsonNode r = new ObjectMapper().readTree(cli.out());
    assertThat(r.path("replays")).hasSize(2);
    assertThat(r.path("replays").get(1).path("plugins").toString()).contains("idle-spin");
    assertThat(r.path("replays").get(1).path("digest").asText())
        .isNotEqualTo(r.path("replays").get(0).path("digest").asText());
    JsonNode task = r.path("tasks").get(0);
    assertThat(task.has("trace")).isTrue();
    assertThat(task.has("model")).isTrue();
    assertThat(task.has("idle-spin")).isTrue();
    assertThat(r.path("total").path("idle-spin").path("runtime_ns").asLong()).isPositive();
  }
}
