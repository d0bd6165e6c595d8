package dev.schedlab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * The example matrix on a three-member cluster of schedlab containers on one Docker network (a
 * coordinator and two workers, which receive the plugins from the coordinator), one worker killed
 * (SIGKILL) in the middle of the run: every cell is recorded exactly once, with the digest of a
 * local run on the host.
 */
@ExtendWith(SchedlabImage.class)
class ContainerClusterIT {
  static final String SECRET = "container-cluster-it-0123456789";
  static final Duration RUN_LIMIT = Duration.ofMinutes(20);

  @Test
  void exampleMatrixOnThreeMembersWithAWorkerKilledMidRunMatchesTheLocalRun(@TempDir Path tmp)
      throws Exception {
    Path matrix = Cli.root().resolve("examples/matrix.yaml");
    Cli local =
        Cli.run(
            "matrix",
            matrix.toString(),
            "--out",
            tmp.resolve("host").toString(),
            "--plugins-dir",
            Cli.pluginsDir().toString(),
            "-q");
    assertThat(local.exitCode()).as(local.err()).isZero();
    Map<String, String> onHost = ContainerMatrixIT.digests(tmp.resolve("host/cells.jsonl"));
    Cli list =
        Cli.run(
            "matrix", matrix.toString(), "--list", "--plugins-dir", Cli.pluginsDir().toString());
    Matcher idMatch = Pattern.compile("id ([0-9a-f]{16}), (\\d+) cells").matcher(list.err());
    assertThat(idMatch.find()).as(list.err()).isTrue();
    String id = idMatch.group(1);
    int cells = Integer.parseInt(idMatch.group(2));
    assertThat(onHost).hasSize(cells);

    String app = SchedlabImage.APP;
    try (Network net = Network.newNetwork();
        GenericContainer<?> coordinator =
            member(net, "coordinator")
                .withCopyFileToContainer(
                    MountableFile.forHostPath(matrix), app + "/examples/matrix.yaml")
                .withCopyFileToContainer(
                    MountableFile.forHostPath(Cli.root().resolve("examples/quickstart.yaml")),
                    app + "/examples/quickstart.yaml")
                .withCommand(
                    "matrix",
                    app + "/examples/matrix.yaml",
                    "--cluster",
                    "--bind",
                    "coordinator:5701",
                    "-j",
                    "0",
                    "--out",
                    "/work/out");
        GenericContainer<?> steady =
            member(net, "worker-1")
                .withCommand("worker", "--join", "coordinator:5701", "--matrix", id, "-j", "2");
        GenericContainer<?> doomed =
            member(net, "worker-2")
                .withCommand("worker", "--join", "coordinator:5701", "--matrix", id, "-j", "2")) {
      coordinator.start();
      waitFor(
          () -> err(coordinator).contains("cluster of matrix " + id + ": coordinator on"),
          coordinator);
      steady.start();
      doomed.start();
      waitFor(() -> count(err(coordinator), " admitted, 2 jobs") == 2, coordinator);
      String doomedAddress =
          doomed
                  .getContainerInfo()
                  .getNetworkSettings()
                  .getNetworks()
                  .values()
                  .iterator()
                  .next()
                  .getIpAddress()
              + ":5701";
      assertThat(err(coordinator)).contains("worker " + doomedAddress + " admitted");
      waitFor(() -> count(err(coordinator), " done: #") >= cells / 4, coordinator);

      DockerClientFactory.instance().client().killContainerCmd(doomed.getContainerId()).exec();
      waitFor(() -> !coordinator.isRunning(), coordinator);

      String log = err(coordinator);
      assertThat(coordinator.getCurrentContainerInfo().getState().getExitCodeLong())
          .as(log)
          .isZero();
      assertThat(log)
          .contains("member " + doomedAddress + " left")
          .contains("runs again: worker " + doomedAddress + " left before it finished");
      Path fromCluster = tmp.resolve("cluster.jsonl");
      coordinator.copyFileFromContainer("/work/out/cells.jsonl", fromCluster.toString());
      assertThat(Files.readAllLines(fromCluster)).hasSize(cells);
      assertThat(ContainerMatrixIT.digests(fromCluster)).isEqualTo(onHost);
      waitFor(() -> !steady.isRunning(), steady);
      assertThat(err(steady)).contains("worker: matrix " + id + " complete;");
    }
  }

  private static GenericContainer<?> member(Network net, String name) {
    return new GenericContainer<>(DockerImageName.parse(SchedlabImage.name()))
        .withNetwork(net)
        .withNetworkAliases(name)
        .withEnv("SCHEDLAB_CLUSTER_SECRET", SECRET);
  }

  private static String err(GenericContainer<?> c) {
    return c.getLogs(OutputFrame.OutputType.STDERR);
  }

  private static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  /** Polls {@code done} every half second, failing with the container's log after the limit. */
  private static void waitFor(BooleanSupplier done, GenericContainer<?> c)
      throws InterruptedException {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime())
          .as("waited %s; log:%n%s", RUN_LIMIT, c.getLogs())
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }
}
