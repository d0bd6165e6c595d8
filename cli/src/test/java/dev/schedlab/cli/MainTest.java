package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.CliTestSupport.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit codes and messages that do not need the engine. */
class MainTest {
  static final String QUICKSTART = Path.of("..", "examples", "quickstart.yaml").toString();

  @TempDir Path dir;

  @Test
  void helpExitsZeroAndListsExitCodes() {
    Outcome o = run("--help");
    assertThat(o.code()).isZero();
    assertThat(o.out()).contains("run", "validate", "plugins", "Exit codes:", "2   bad input");
    assertThat(run("run", "--help").out())
        .contains("--plugin=ID[:k=v;k=v]", "--set=KEY=VALUE", "--trace=FILE");
  }

  @Test
  void helpTextsFormatWithoutPicocliWarnings() {
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    Outcome o;
    try {
      o = run("--help");
    } finally {
      System.setErr(saved);
    }
    // A bare % in a description makes picocli print a warning and the raw text.
    assertThat(captured.toString(java.nio.charset.StandardCharsets.UTF_8))
        .doesNotContain("picocli WARN");
    assertThat(o.out().replaceAll("\\s+", " ")).contains("95% CI (Student t)");
  }

  @Test
  void versionComesFromTheFilteredResource() {
    Outcome o = run("--version");
    assertThat(o.code()).isZero();
    assertThat(o.out())
        .startsWith("schedlab ")
        .doesNotContain("${project.version}")
        .doesNotContain("unknown");
  }

  @Test
  void unknownScenarioFieldIsExit2WithLine() throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(
        f,
        "seed: 1\nworkload:\n  tasks:\n    - name: a\n      polcy: fifo\n      program: [user: 1ms]\n");
    Outcome o = run("run", f.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.out()).isEmpty();
    assertThat(o.err())
        .contains(f + ":5:7: workload.tasks[0].polcy: unknown field; expected one of");
    assertThat(run("validate", f.toString()).code()).isEqualTo(2);
  }

  @Test
  void badSetIsExit2NamingTheSet() {
    Outcome o = run("run", QUICKSTART, "--set", "kernel.hzz=250");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--set kernel.hzz=250: kernel.hzz: unknown field");
    assertThat(run("validate", QUICKSTART, "--set", "kernel.hz=333").err())
        .contains("--set kernel.hz=333: kernel.hz: expected one of 100, 250, 300, 1000");
  }

  @Test
  void missingFileIsExit2() {
    Outcome o = run("run", dir.resolve("nope.yaml").toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("nope.yaml: no such file");
  }

  @Test
  void badFlagsAreExit2() {
    assertThat(run("run", QUICKSTART, "--format", "xml").code()).isEqualTo(2);
    assertThat(run("run", QUICKSTART, "--bogus").code()).isEqualTo(2);
    assertThat(run("run").code()).isEqualTo(2);
    Outcome o = run("run", QUICKSTART, "--plugin", "Not_Kebab:x=1");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("kebab-case");
    assertThat(run().code()).isEqualTo(2);
  }

  @Test
  void validateQuickstart() {
    Outcome o = run("validate", QUICKSTART, "--set", "kernel.hz=250");
    assertThat(o.code()).isZero();
    assertThat(o.out()).startsWith("ok: quickstart: 8 CPUs (small-x86), 5 task groups (7 tasks)");
  }
}
