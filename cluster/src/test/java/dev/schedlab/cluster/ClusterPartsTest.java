package dev.schedlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellResult;
import dev.schedlab.lab.matrix.MatrixRunner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pieces of cluster mode that need no running cluster. */
class ClusterPartsTest {
  @TempDir Path tmp;

  @Test
  void addressesParseWithDefaultPortsAndIpv6AndBadOnesAreNamed() throws Exception {
    assertThat(Endpoint.parse("10.0.0.5", 5701)).isEqualTo(new Endpoint("10.0.0.5", 5701));
    assertThat(Endpoint.parse(" node-2:5800 ", 5701)).isEqualTo(new Endpoint("node-2", 5800));
    assertThat(Endpoint.parse("[fd00::5]:6000", 5701)).isEqualTo(new Endpoint("fd00::5", 6000));
    assertThat(Endpoint.parse("[fd00::5]:6000", 5701).toString()).isEqualTo("[fd00::5]:6000");
    assertThat(Endpoint.parseList("a:1,b", 5701))
        .containsExactly(new Endpoint("a", 1), new Endpoint("b", 5701));
    assertThatThrownBy(() -> Endpoint.parse("a:70000", 5701))
        .hasMessageContaining("'a:70000'")
        .hasMessageContaining("not in 1..65535");
    assertThatThrownBy(() -> Endpoint.parse("a:x", 5701))
        .hasMessageContaining("expected HOST[:PORT]");
    assertThatThrownBy(() -> Endpoint.parseList(" , ", 5701))
        .hasMessageContaining("expected HOST:PORT");
  }

  @Test
  void theSecretComesFromAFileOrTheEnvironmentAndIsNeverShown() throws Exception {
    Path file = tmp.resolve("secret");
    Files.writeString(file, "  file-secret-0123456789\n");
    Secret fromFile = Secret.resolve(file, Map.of(Secret.ENV, "env-secret-0123456789"));
    Secret fromEnv = Secret.resolve(null, Map.of(Secret.ENV, "env-secret-0123456789"));
    assertThat(fromFile.origin()).isEqualTo(file.toString());
    assertThat(fromEnv.origin()).isEqualTo("$" + Secret.ENV);
    assertThat(fromFile.toString()).doesNotContain("file-secret");
    assertThat(fromFile.tag("x"))
        .isEqualTo(Secret.of("file-secret-0123456789", "t").tag("x"))
        .isNotEqualTo(fromEnv.tag("x"))
        .matches("[0-9a-f]{16}");
    assertThatThrownBy(() -> Secret.resolve(null, Map.of()))
        .hasMessageContaining("--secret-file")
        .hasMessageContaining(Secret.ENV);
    assertThatThrownBy(() -> Secret.resolve(tmp.resolve("none"), Map.of()))
        .hasMessageContaining("no such file");
    Files.writeString(file, "short");
    assertThatThrownBy(() -> Secret.resolve(file, Map.of())).hasMessageContaining("at least 16");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(Secret.permissionWarning(file)).contains("chmod 600");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(Secret.permissionWarning(file)).isNull();
  }

  @Test
  void theClusterNameHangsOnTheMatrixAndTheSecret() throws Exception {
    ClusterFixture f = new ClusterFixture(tmp);
    try (PluginHost host = PluginHost.open(f.plugins)) {
      List<Cell> cells = f.cells(host);
      String id = MatrixId.of(cells);
      assertThat(MatrixId.valid(id)).isTrue();
      assertThat(MatrixId.of(f.cells(host))).isEqualTo(id);
      assertThat(MatrixId.of(cells.subList(1, cells.size()))).isNotEqualTo(id);
      Secret a = Secret.of("secret-a-0123456789", "a");
      Secret b = Secret.of("secret-b-0123456789", "b");
      assertThat(MatrixId.clusterName(id, a))
          .startsWith("schedlab-" + id + "-")
          .isEqualTo(MatrixId.clusterName(id, Secret.of("secret-a-0123456789", "again")))
          .isNotEqualTo(MatrixId.clusterName(id, b))
          .doesNotContain("secret");
    }
  }

  @Test
  void pluginManifestsNameWhatDiffers() throws Exception {
    Path a = Files.createDirectories(tmp.resolve("a"));
    Files.write(a.resolve("x.zip"), new byte[] {1, 2, 3});
    Files.createDirectories(a.resolve("exploded/lib"));
    Files.writeString(a.resolve("exploded/plugin.properties"), "plugin.id=e\n");
    Files.writeString(a.resolve("exploded/lib/e.jar"), "jar");
    Files.writeString(a.resolve("notes.txt"), "not a plugin");
    PluginManifest m = PluginManifest.of(a);
    assertThat(m.hashes()).containsOnlyKeys("exploded", "x.zip");
    assertThat(m.hashes().get("x.zip")).isEqualTo(PluginManifest.sha256(new byte[] {1, 2, 3}));

    Path b = Files.createDirectories(tmp.resolve("b"));
    PluginManifest.write(b, PluginManifest.files(a, "exploded"));
    PluginManifest.write(b, PluginManifest.files(a, "x.zip"));
    assertThat(PluginManifest.of(b)).isEqualTo(m);
    assertThat(PluginManifest.of(b).differences(m)).isNull();

    Files.writeString(b.resolve("exploded/lib/e.jar"), "other jar");
    Files.write(b.resolve("y.zip"), new byte[] {4});
    Files.delete(b.resolve("x.zip"));
    assertThat(PluginManifest.of(b).differences(m))
        .contains("exploded has SHA-256 ")
        .contains("x.zip is missing here")
        .contains("y.zip is here but not on the coordinator");
    assertThat(PluginManifest.of(null).hashes()).isEmpty();
    assertThatThrownBy(
            () -> PluginManifest.write(b, new TreeMap<>(Map.of("../evil.zip", new byte[0]))))
        .hasMessageContaining("outside the plugins directory");
  }

  @Test
  void aCellSentToAMemberRunsFromItsOwnCopyOfTheFilesToTheSameResult() throws Exception {
    ClusterFixture f = new ClusterFixture(tmp);
    try (PluginHost host = PluginHost.open(f.plugins)) {
      for (Cell c : f.cells(host)) {
        CellSpec spec = CellSpec.of(c, CellSpec.filesOf(c.workload()));
        CellSpec received = (CellSpec) roundTrip(spec);
        Path mirror = tmp.resolve("mirror");
        Cell there = received.toCell(mirror);
        assertThat(there.runId()).isEqualTo(c.runId());
        assertThat(there.overrides()).isEqualTo(c.overrides());
        assertThat(there.plugins()).isEqualTo(c.plugins());
        if (c.workload().file() != null) {
          assertThat(there.workload().file()).startsWith(mirror.toAbsolutePath());
          // the scenario and, for on-file-machine.yaml, its ../machines/three.yaml
          assertThat(spec.files()).hasSize(c.workload().label().equals("on-file-machine") ? 2 : 1);
        }
        CellResult here = MatrixRunner.runCell(c, host);
        CellResult away = (CellResult) roundTrip(MatrixRunner.runCell(there, host));
        assertThat(here.ok()).as(here.error()).isTrue();
        assertThat(away.digest()).isEqualTo(here.digest());
        assertThat(away.values()).isEqualTo(here.values());
      }
    }
  }

  @Test
  void membersBindToTheGivenInterfaceAndJoinByTheListOnly() throws Exception {
    MemberRuntime runtime = new MemberRuntime(tmp, MatrixRunner::runCell, null);
    Config c =
        MemberConfig.of(
            "schedlab-x",
            new Endpoint("localhost", 5801),
            false,
            List.of(new Endpoint("localhost", 5701)),
            MemberConfig.WORKER,
            3,
            runtime);
    JoinConfig j = c.getNetworkConfig().getJoin();
    assertThat(j.getMulticastConfig().isEnabled()).isFalse();
    assertThat(j.getAutoDetectionConfig().isEnabled()).isFalse();
    assertThat(j.getTcpIpConfig().isEnabled()).isTrue();
    // a host name is resolved here: Hazelcast's joiner would try no connection to it
    assertThat(j.getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:5701");
    assertThat(MemberConfig.resolved(new Endpoint("no-such-host.invalid", 5701)))
        .isEqualTo("no-such-host.invalid:5701");
    assertThat(c.getNetworkConfig().getInterfaces().isEnabled()).isTrue();
    assertThat(c.getNetworkConfig().getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
    assertThat(c.getProperty("hazelcast.socket.bind.any")).isEqualTo("false");
    assertThat(c.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
    assertThat(c.getExecutorConfig(MemberConfig.CELLS).getPoolSize()).isEqualTo(3);
    assertThat(c.getUserContext().get(MemberRuntime.KEY)).isSameAs(runtime);
    assertThat(
            c.getSerializationConfig()
                .getJavaSerializationFilterConfig()
                .getWhitelist()
                .getPrefixes())
        .contains("dev.schedlab.");
    assertThat(c.getNetworkConfig().getPort()).isEqualTo(5801);
    // A worker on the coordinator's machine starts past the coordinator's port.
    assertThat(MemberConfig.firstPort("127.0.0.1", 5701, List.of(new Endpoint("localhost", 5701))))
        .isEqualTo(5702);
    assertThat(
            MemberConfig.firstPort(
                "127.0.0.1",
                5701,
                List.of(new Endpoint("127.0.0.1", 5750), new Endpoint("127.0.0.1", 5702))))
        .isEqualTo(5751);
    assertThat(MemberConfig.firstPort("127.0.0.1", 5701, List.of(new Endpoint("192.0.2.1", 5701))))
        .isEqualTo(5701);
    assertThatThrownBy(() -> MemberConfig.localAddress("0.0.0.0")).hasMessageContaining("wildcard");
    assertThatThrownBy(() -> MemberConfig.localAddress("192.0.2.1"))
        .hasMessageContaining("not an address of this machine");
  }

  private static Object roundTrip(Object o) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(o);
    }
    try (ObjectInputStream in =
        new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return in.readObject();
    }
  }
}
