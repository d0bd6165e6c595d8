package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.CliTestSupport.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** schedlab report and --report through the CLI: pages written, bad input refused with exit 2. */
class ReportCommandTest {
  @TempDir Path dir;

  @Test
  void runWritesItsReportAndReportRemakesItFromTheFiles() throws Exception {
    Path f = Files.writeString(dir.resolve("s.yaml"), WorkloadCommandsTest.SCENARIO);
    Path page = dir.resolve("out/run.html");
    Outcome r =
        run(
            "run",
            f.toString(),
            "--out",
            dir.resolve("r.json").toString(),
            "--trace",
            dir.resolve("r.trace").toString(),
            "--report",
            page.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(Files.readString(page))
        .startsWith("<!DOCTYPE html>")
        .contains("data-chart=\"timeline\"");
    Outcome again =
        run(
            "report",
            dir.resolve("r.json").toString(),
            dir.resolve("r.trace").toString(),
            "--out",
            dir.resolve("again.html").toString());
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).isEqualTo("wrote " + dir.resolve("again.html") + "\n");
    assertThat(Files.readString(dir.resolve("again.html"))).isEqualTo(Files.readString(page));
  }

  @Test
  void badInputIsExitTwoWithTheFileAndNoPageIsWritten() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"x\": 1}");
    Path page = dir.resolve("p.html");
    Outcome o = run("report", bad.toString(), "--out", page.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).startsWith("schedlab: " + bad + ": not a schedlab result");
    assertThat(page).doesNotExist();
    Outcome axes = run("report", bad.toString(), "--axes", "workload", "--out", page.toString());
    assertThat(axes.code()).isEqualTo(2);
    assertThat(axes.err()).contains("--axes: expected X,Y, got workload");
    assertThat(run("report", "--out", page.toString()).code()).isEqualTo(2);
    assertThat(dir.toFile().list()).containsExactly("bad.json");
  }
}
