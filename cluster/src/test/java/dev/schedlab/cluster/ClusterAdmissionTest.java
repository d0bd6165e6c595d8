package dev.schedlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.Version;
import dev.schedlab.lab.matrix.MatrixRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may take part: a worker of another version and one whose shared plugins differ are refused
 * with the reason (on both sides); one without the secret cannot join at all; one with the
 * coordinator's shared plugins directory runs the matrix to the local digests.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterAdmissionTest {
  @TempDir Path tmp;
  private ClusterFixture f;

  @BeforeEach
  void fixture() throws Exception {
    f = new ClusterFixture(tmp);
  }

  @AfterEach
  void stopEverything() {
    f.close();
  }

  @Test
  void onlyMembersWithTheSecretTheVersionAndThePluginsTakePart() throws Exception {
    Map<String, String> local = f.local(tmp.resolve("local"));
    int port = ClusterFixture.freePort();
    String id = f.matrixId();
    StringBuffer coordinatorLog = new StringBuffer();
    Future<MatrixRunner.Outcome> run =
        f.coordinate(
            tmp.resolve("cluster"),
            new Coordinator(
                ClusterFixture.settings(port, List.of(), ClusterFixture.SECRET),
                0,
                f.plugins,
                s -> coordinatorLog.append(s).append('\n')),
            MatrixRunner.Listener.NONE);
    ClusterSettings member =
        ClusterFixture.settings(ClusterFixture.freePort(), List.of(port), ClusterFixture.SECRET);

    StringBuffer oldLog = new StringBuffer();
    Worker old =
        new Worker(
            new Worker.Settings(id, member, 1, null, "0.0.1-old"),
            s -> oldLog.append(s).append('\n'));
    assertThat(f.start(old).get(60, TimeUnit.SECONDS)).isEqualTo(Worker.REFUSED);
    assertThat(oldLog.toString())
        .contains(
            "refused by the coordinator of matrix "
                + id
                + ": schedlab 0.0.1-old on the worker but "
                + Version.current()
                + " on the coordinator");

    Path otherPlugins = copyOfPlugins("other-plugins");
    String zip = onlyZip(otherPlugins);
    Files.write(otherPlugins.resolve(zip), new byte[] {0}, StandardOpenOption.APPEND);
    StringBuffer otherLog = new StringBuffer();
    Worker other =
        new Worker(
            new Worker.Settings(id, member, 1, otherPlugins), s -> otherLog.append(s).append('\n'));
    assertThat(f.start(other).get(60, TimeUnit.SECONDS)).isEqualTo(Worker.REFUSED);
    assertThat(otherLog.toString())
        .contains("its plugins differ from the coordinator's (" + zip + " has SHA-256 ");

    StringBuffer strangerLog = new StringBuffer();
    Worker stranger =
        new Worker(
            new Worker.Settings(
                id,
                ClusterFixture.settings(
                    ClusterFixture.freePort(), List.of(port), "another-secret-0123456789"),
                1,
                null),
            s -> strangerLog.append(s).append('\n'));
    Future<Integer> strangerExit = f.start(stranger);
    while (strangerLog.indexOf("no coordinator of matrix " + id + " answers") < 0) {
      assertThat(strangerExit).isNotDone();
      Thread.sleep(100);
    }
    stranger.close();
    assertThat(strangerExit.get(60, TimeUnit.SECONDS)).isEqualTo(Worker.STOPPED);
    assertThat(ClusterFixture.digests(tmp.resolve("cluster"))).isEmpty();

    Worker shared =
        new Worker(new Worker.Settings(id, member, 2, copyOfPlugins("shared")), s -> {});
    assertThat(f.start(shared).get(120, TimeUnit.SECONDS)).isEqualTo(Worker.DONE);
    assertThat(run.get(60, TimeUnit.SECONDS).ran()).isEqualTo(local.size());
    assertThat(ClusterFixture.digests(tmp.resolve("cluster"))).isEqualTo(local);
    String log = coordinatorLog.toString();
    assertThat(log)
        .contains("schedlab 0.0.1-old on the worker but " + Version.current())
        .contains("its plugins differ from the coordinator's (" + zip);
    // Three members joined the coordinator's cluster; the one without the secret never did.
    assertThat(log.lines().filter(l -> l.matches("member .* joined"))).hasSize(3);
  }

  private Path copyOfPlugins(String name) throws Exception {
    Path to = Files.createDirectories(tmp.resolve(name));
    try (Stream<Path> s = Files.list(f.plugins)) {
      for (Path p : s.toList()) {
        Files.copy(p, to.resolve(p.getFileName()));
      }
    }
    return to;
  }

  private static String onlyZip(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      List<String> zips =
          s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".zip")).toList();
      assertThat(zips).hasSize(1);
      return zips.get(0);
    }
  }
}
