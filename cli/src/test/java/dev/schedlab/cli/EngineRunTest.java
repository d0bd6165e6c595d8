package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.cli.CliTestSupport.Outcome;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

/** Full runs through the CLI; enabled only once the engine and plugin host are implemented. */
@EnabledIf("engineReady")
class EngineRunTest {
  static final String QUICKSTART = MainTest.QUICKSTART;

  @TempDir Path dir;

  static boolean engineReady() {
    try (PluginHost host = PluginHost.open(null)) {
      var s =
          ScenarioLoader.parse(
              "tiny.yaml",
              "duration: 1ms\nworkload: {tasks: [{program: [user: 100us]}]}\n",
              true,
              "tiny",
              List.of());
      Simulation.run(s.config(), host.extensionsFor(List.of()), TraceSink.NONE);
      return true;
    } catch (UnsupportedOperationException e) {
      return false;
    } catch (Exception e) {
      return true; // a real engine that fails: let the tests show it
    }
  }

  @Test
  void runPrintsJsonWritesOutAndTrace() throws Exception {
    Path out = dir.resolve("result.json");
    Path trace = dir.resolve("trace.txt");
    Outcome o =
        run(
            "run",
            QUICKSTART,
            "--format",
            "json",
            "--seed",
            "7",
            "--set",
            "duration=20ms",
            "--out",
            out.toString(),
            "--trace",
            trace.toString());
    assertThat(o.code()).as(o.err()).isZero();
    JsonNode n = new ObjectMapper().readTree(o.out());
    assertThat(n.get("seed").asLong()).isEqualTo(7);
    assertThat(n.get("scenario").asText()).isEqualTo("quickstart");
    assertThat(Files.readString(out)).isEqualTo(o.out());
    assertThat(Files.readString(trace)).startsWith("# tracer: nop").contains("#P:8");
  }

  @Test
  void unwritableOutIsBadInputNamingTheOptionWithoutUsageText() throws Exception {
    Path notADir = dir.resolve("file");
    Files.writeString(notADir, "x");
    Outcome o =
        run(
            "run",
            QUICKSTART,
            "--set",
            "duration=5ms",
            "--out",
            notADir.resolve("result.json").toString());
    assertThat(o.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(o.err()).contains("--out: cannot write").doesNotContain("Usage:");
    assertThat(notADir.getParent())
        .isDirectoryNotContaining(p -> p.getFileName().toString().endsWith(".tmp"));
  }

  @Test
  void sameSeedSameBytesApartFromWallTime() {
    String a = run("run", QUICKSTART, "--format", "json", "--set", "duration=10ms").out();
    String b = run("run", QUICKSTART, "--format", "json", "--set", "duration=10ms").out();
    assertThat(a.replaceAll("\"wall_ns\" : \\d+", ""))
        .isEqualTo(b.replaceAll("\"wall_ns\" : \\d+", ""));
  }

  @Test
  void unknownPluginIsExit2() {
    Outcome o = run("run", QUICKSTART, "--plugin", "no-such-plugin");
    assertThat(o.code()).isEqualTo(2);
  }
}
