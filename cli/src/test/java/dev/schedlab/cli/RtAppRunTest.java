package dev.schedlab.cli;

import static dev.schedlab.cli.CliTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.cli.CliTestSupport.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code schedlab run FILE.json} of an rt-app file: its report, notes and log files. */
class RtAppRunTest {
  private static final String FILE =
      String.join(
          "\n",
          "{ \"tasks\" : { \"p\" : { \"loop\" : 5, \"run\" : 1000,",
          "      \"timer\" : { \"ref\" : \"unique\", \"period\" : 4000 }, } },",
          "  \"global\" : { \"duration\" : 1, \"logdir\" : \"%s\", \"log_basename\" : \"cli\",",
          "    \"gnuplot\" : true, \"lock_pages\" : false } }",
          "");

  @TempDir Path dir;

  private Path file(String logdir) throws Exception {
    Path f = dir.resolve("w.json");
    Files.writeString(f, String.format(FILE, logdir));
    return f;
  }

  private long files(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Test
  void runWritesTheLogsWhereTheFileSaysOrWhereTheOptionSays() throws Exception {
    Path logs = Files.createDirectory(dir.resolve("logs"));
    Outcome o = run("run", file(logs.toString()).toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("$ rt-app ", "note: line 4: global.lock_pages", "p-0");
    assertThat(logs.resolve("cli-p-0.log")).exists();
    assertThat(Files.readAllLines(logs.resolve("cli-p-0.log"))).hasSize(6); // header + 5 rows
    assertThat(logs.resolve("cli-period.plot")).exists();
    Path other = Files.createDirectory(dir.resolve("other"));
    assertThat(
            run("run", file(logs.toString()).toString(), "--rtapp-logdir", other.toString()).code())
        .isZero();
    assertThat(files(other)).isEqualTo(4); // log, thread plot, period and run plots
  }

  @Test
  void aMissingLogdirStopsTheRunBeforeItStartsWithExitCode2() throws Exception {
    Path missing = dir.resolve("missing");
    Outcome o = run("run", file(missing.toString()).toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("global.logdir of", "log directory does not exist");
    assertThat(missing).doesNotExist();
    assertThat(files(dir)).isEqualTo(1); // only the input file
  }

  @Test
  void noLogsOnRequestAndValidatePrintsTheNotes() throws Exception {
    Path logs = Files.createDirectory(dir.resolve("logs"));
    assertThat(run("run", file(logs.toString()).toString(), "--no-rtapp-logs").code()).isZero();
    assertThat(files(logs)).isZero();
    Outcome v = run("validate", file(logs.toString()).toString());
    assertThat(v.code()).isZero();
    assertThat(v.out()).contains("note: line 4: global.lock_pages: lock_pages: no effect");
  }
}
