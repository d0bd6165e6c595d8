package dev.schedlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code schedlab matrix --cluster} and {@code schedlab worker}, in-process, on 127.0.0.1. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterCommandTest {
  @Test
  void aCoordinatorAndAWorkerRecordTheLocalCells(@TempDir Path tmp) throws Exception {
    Path m = matrix(tmp);
    Path secret = secret(tmp);
    CliTestSupport.Outcome local =
        CliTestSupport.run("matrix", m.toString(), "--out", tmp.resolve("local").toString(), "-q");
    assertThat(local.code()).as(local.err()).isZero();
    CliTestSupport.Outcome list = CliTestSupport.run("matrix", m.toString(), "--list");
    String id = list.err().replaceAll("(?s).*id ([0-9a-f]{16}), 6 cells.*", "$1");
    assertThat(id).matches("[0-9a-f]{16}");

    int port = freePort();
    CompletableFuture<CliTestSupport.Outcome> coordinator =
        CompletableFuture.supplyAsync(
            () ->
                CliTestSupport.run(
                    "matrix",
                    m.toString(),
                    "--out",
                    tmp.resolve("cluster").toString(),
                    "--cluster",
                    "--bind",
                    "127.0.0.1:" + port,
                    "--secret-file",
                    secret.toString(),
                    "-j",
                    "0",
                    "-q"));
    CliTestSupport.Outcome worker =
        CliTestSupport.run(
            "worker",
            "--join",
            "127.0.0.1:" + port,
            "--matrix",
            id,
            "--bind",
            "127.0.0.1:" + freePort(),
            "--secret-file",
            secret.toString(),
            "-j",
            "2");
    CliTestSupport.Outcome c = coordinator.get(60, TimeUnit.SECONDS);

    assertThat(c.code()).as(c.err()).isZero();
    assertThat(worker.code()).as(worker.err()).isZero();
    assertThat(c.err())
        .contains("cluster of matrix " + id + ": coordinator on 127.0.0.1:" + port)
        .contains("admitted, 2 jobs");
    assertThat(worker.err()).contains("worker: matrix " + id + " complete; 6 cells ran here");
    assertThat(c.out()).contains("6 cells (6 run now, 0 from cells.jsonl), 0 failed");
    assertThat(lines(tmp.resolve("cluster"))).isEqualTo(lines(tmp.resolve("local")));
  }

  @Test
  void clusterOptionsAreCheckedBeforeAnythingIsWritten(@TempDir Path tmp) throws Exception {
    Path m = matrix(tmp);
    Path out = tmp.resolve("out");
    CliTestSupport.Outcome noSecret =
        CliTestSupport.run(
            "matrix",
            m.toString(),
            "--out",
            out.toString(),
            "--cluster",
            "--secret-file",
            tmp.resolve("missing").toString());
    assertThat(noSecret.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(noSecret.err())
        .contains("--secret-file " + tmp.resolve("missing") + ": no such file");
    assertThat(out).doesNotExist();
    CliTestSupport.Outcome bindAlone =
        CliTestSupport.run("matrix", m.toString(), "--bind", "127.0.0.1");
    assertThat(bindAlone.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(bindAlone.err()).contains("--bind and --secret-file go with --cluster");
    CliTestSupport.Outcome wildcard =
        CliTestSupport.run(
            "matrix",
            m.toString(),
            "--out",
            out.toString(),
            "--cluster",
            "--bind",
            "0.0.0.0",
            "--secret-file",
            secret(tmp).toString());
    assertThat(wildcard.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(wildcard.err()).contains("not the wildcard address");
    assertThat(out).doesNotExist();
    CliTestSupport.Outcome badId =
        CliTestSupport.run("worker", "--join", "127.0.0.1", "--matrix", "x");
    assertThat(badId.code()).isEqualTo(Main.BAD_INPUT);
    assertThat(badId.err()).contains("--matrix: expected the 16 hex digits of a matrix id");
  }

  private static Path matrix(Path tmp) throws Exception {
    Files.writeString(tmp.resolve("s.yaml"), MatrixCommandTest.SCENARIO);
    Path m = tmp.resolve("m.yaml");
    Files.writeString(m, "workloads: [s.yaml]\nseeds: {first: 1, count: 6}\n");
    return m;
  }

  private static Path secret(Path tmp) throws Exception {
    Path s = tmp.resolve("secret");
    Files.writeString(s, "cli-test-secret-0123456789\n");
    Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rw-------"));
    return s;
  }

  /** The lines of cells.jsonl without the wall time, sorted. */
  private static List<String> lines(Path out) throws Exception {
    return Files.readAllLines(out.resolve("cells.jsonl")).stream()
        .map(l -> l.replaceAll("\"wall_ms\":[0-9]+,", ""))
        .sorted()
        .collect(Collectors.toList());
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }
}
