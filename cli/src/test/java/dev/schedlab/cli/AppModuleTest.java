package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.inject.AbstractModule;
import com.google.inject.Module;
import com.google.inject.util.Modules;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.LocalCellExecutor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands use what the composition root binds, and nothing else. */
class AppModuleTest {
  @TempDir Path dir;

  private static CliTestSupport.Outcome run(Module override, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            Modules.override(new AppModule()).with(override),
            new PrintWriter(out),
            new PrintWriter(err),
            args);
    return new CliTestSupport.Outcome(code, out.toString(), err.toString());
  }

  @Test
  void thePluginSourceDecidesThePluginsDirectoryWhenTheOptionIsNotGiven() throws Exception {
    Path bound = Files.createDirectories(dir.resolve("bound"));
    Module source =
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(PluginSource.class).toInstance(option -> option != null ? option : bound);
          }
        };
    CliTestSupport.Outcome chosen = run(source, "plugins");
    assertThat(chosen.code()).as(chosen.err()).isZero();
    assertThat(chosen.out()).startsWith("plugins in " + bound + ": 0");

    Path given = Files.createDirectories(dir.resolve("given"));
    CliTestSupport.Outcome option = run(source, "plugins", "--plugins-dir", given.toString());
    assertThat(option.out()).startsWith("plugins in " + given + ": 0");
  }

  @Test
  void matrixCellsRunOnTheBoundExecutor() throws Exception {
    Files.writeString(dir.resolve("s.yaml"), MatrixCommandTest.SCENARIO);
    Files.writeString(dir.resolve("m.yaml"), "workloads: [s.yaml]\nseeds: [1, 2, 3]\n");
    List<MatrixModule.Options> asked = new ArrayList<>();
    List<Integer> cellsRun = new ArrayList<>();
    Module executors =
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(MatrixModule.CellExecutors.class)
                .toInstance(
                    options -> {
                      asked.add(options);
                      CellExecutor local = new LocalCellExecutor(1);
                      return (job, results) -> {
                        cellsRun.add(job.todo().size());
                        local.execute(job, results);
                      };
                    });
          }
        };
    CliTestSupport.Outcome o =
        run(
            executors,
            "matrix",
            dir.resolve("m.yaml").toString(),
            "--out",
            dir.resolve("out").toString(),
            "-j",
            "2");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(asked)
        .singleElement()
        .satisfies(
            opt -> {
              assertThat(opt.jobs()).isEqualTo(2);
              assertThat(opt.cluster()).isNull();
            });
    assertThat(cellsRun).containsExactly(3);
    assertThat(o.out()).contains("3 cells (3 run now, 0 from cells.jsonl)");
  }

  @Test
  void commandsWriteTheirFilesThroughTheBoundOutputFiles() throws Exception {
    Path s = dir.resolve("s.yaml");
    Files.writeString(s, MatrixCommandTest.SCENARIO);
    Path trace = dir.resolve("t.trace");
    assertThat(CliTestSupport.run("run", s.toString(), "--trace", trace.toString()).code())
        .isZero();
    Map<Path, String> written = new LinkedHashMap<>();
    Module files =
        new AbstractModule() {
          @Override
          protected void configure() {
            bind(OutputFiles.class)
                .toInstance(
                    (file, bytes) ->
                        written.put(
                            file, new String(bytes, java.nio.charset.StandardCharsets.UTF_8)));
          }
        };
    Path out = dir.resolve("imported.yaml");
    CliTestSupport.Outcome o =
        run(files, "import-trace", trace.toString(), "--out", out.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(written).containsOnlyKeys(out);
    assertThat(written.get(out)).contains("workload:");
    assertThat(out).doesNotExist();
  }

  @Test
  void theProgressBarShowsTheWallTimeTakenAndTheTimeLeftFromTheBoundClock() {
    Instant[] now = {Instant.parse("2026-01-01T00:00:00Z")};
    InstantSource clock = () -> now[0];
    StringWriter err = new StringWriter();
    Progress p = new Progress(new PrintWriter(err), false, "m", clock, true);
    now[0] = now[0].plus(Duration.ofSeconds(80));
    p.step(1, 4, "cells", "unused");
    assertThat(err.toString()).contains("1/4 cells, 1m20s, about 4m00s left");
    now[0] = now[0].plus(Duration.ofSeconds(40));
    p.step(4, 4, "cells", "unused");
    assertThat(err.toString()).contains("4/4 cells, 2m00s");
  }
}
