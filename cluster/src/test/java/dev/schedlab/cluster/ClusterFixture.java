package dev.schedlab.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hazelcast.core.Hazelcast;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.CellLog;
import dev.schedlab.lab.matrix.MatrixFile;
import dev.schedlab.lab.matrix.MatrixPlan;
import dev.schedlab.lab.matrix.MatrixRunner;
import dev.schedlab.lab.matrix.MatrixSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * A small matrix (two scenario files, one of them with a machine file, a tool line; with and
 * without the sm-idle plugin) in a temporary directory, the plugins directory the coordinator uses,
 * and helpers that run it locally, start a coordinator and workers in this JVM (each its own
 * Hazelcast instance on 127.0.0.1) and read {@code cells.jsonl}.
 */
final class ClusterFixture implements AutoCloseable {
  static final String SECRET = "test-secret-0123456789abcdef";
  static final String TINY =
      String.join(
          "\n",
          "duration: 15ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload:",
          "  tasks:",
          "    - {name: ticker, count: 2, program: [{sleep_until: {period: 2ms}}, {user: 200us}]}",
          "");
  static final String MACHINE =
      String.join(
          "\n",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 3, threads_per_core: 1}",
          "");
  static final String ON_FILE_MACHINE =
      String.join(
          "\n",
          "duration: 15ms",
          "machine: {file: ../machines/three.yaml}",
          "workload:",
          "  tasks:",
          "    - {name: spin, count: 4, program: [{user: 300us}, {sleep: 500us}]}",
          "");
  static final String MATRIX =
      String.join(
          "\n",
          "name: c",
          "workloads:",
          "  - tiny.yaml",
          "  - on-file-machine.yaml",
          "  - {tool: 'ipistorm numipi=300 single=1 offset=1 cpulist=1 wait=1', label: ipistorm, duration: 20ms}",
          "plugins: [none, sm-idle]",
          "seeds: [1, 2]",
          "");

  final Path dir;
  final Path matrix;
  final Path plugins;
  final List<AutoCloseable> toClose = Collections.synchronizedList(new ArrayList<>());
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "cluster-test");
            t.setDaemon(true);
            return t;
          });

  ClusterFixture(Path dir) throws IOException {
    this.dir = dir;
    Path m = Files.createDirectories(dir.resolve("matrix"));
    Files.writeString(m.resolve("tiny.yaml"), TINY);
    Files.writeString(m.resolve("on-file-machine.yaml"), ON_FILE_MACHINE);
    Files.writeString(
        Files.createDirectories(dir.resolve("machines")).resolve("three.yaml"), MACHINE);
    matrix = m.resolve("matrix.yaml");
    Files.writeString(matrix, MATRIX);
    plugins = Files.createDirectories(dir.resolve("plugins"));
    Path built = Path.of(System.getProperty("schedlab.test.plugins", "target/test-plugins"));
    try (Stream<Path> s = Files.list(built)) {
      for (Path zip : s.filter(p -> p.toString().endsWith(".zip")).toList()) {
        Files.copy(zip, plugins.resolve(zip.getFileName()));
      }
    }
  }

  MatrixSpec spec() throws Exception {
    return MatrixFile.load(matrix);
  }

  List<Cell> cells(PluginHost host) throws Exception {
    return MatrixPlan.cells(spec(), host.allowedCombinations());
  }

  /** Runs the matrix locally into {@code out}; the digests by run id. */
  Map<String, String> local(Path out) throws Exception {
    try (PluginHost host = PluginHost.open(plugins);
        CellLog log = CellLog.open(out)) {
      MatrixRunner.run("c", cells(host), host, log, 2, false, MatrixRunner.Listener.NONE);
    }
    return digests(out);
  }

  /** A free TCP port on 127.0.0.1. */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return s.getLocalPort();
    }
  }

  static ClusterSettings settings(int port, List<Integer> join, String secret) throws Exception {
    List<Endpoint> members = new ArrayList<>();
    for (int p : join) {
      members.add(new Endpoint("127.0.0.1", p));
    }
    return new ClusterSettings(new Endpoint("127.0.0.1", port), members, Secret.of(secret, "test"));
  }

  /** Runs the matrix into {@code out} with {@code coordinator} as executor, in the background. */
  Future<MatrixRunner.Outcome> coordinate(
      Path out, CellExecutor coordinator, MatrixRunner.Listener listener) {
    return threads.submit(
        () -> {
          try (PluginHost host = PluginHost.open(plugins);
              CellLog log = CellLog.open(out)) {
            return MatrixRunner.run("c", cells(host), host, log, coordinator, false, listener);
          }
        });
  }

  /** Starts {@code w} in the background; it is closed with the fixture. */
  Future<Integer> start(Worker w) {
    toClose.add(w);
    return threads.submit(w::run);
  }

  /** The matrix id of the fixture's matrix. */
  String matrixId() throws Exception {
    try (PluginHost host = PluginHost.open(plugins)) {
      return MatrixId.of(cells(host));
    }
  }

  /** The lines of {@code out/cells.jsonl} as run id to digest; fails on a run id seen twice. */
  static Map<String, String> digests(Path out) throws IOException {
    Map<String, String> d = new TreeMap<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : Files.readAllLines(out.resolve(CellLog.FILE))) {
      JsonNode n = json.readTree(line);
      String previous =
          d.put(
              n.get("run_id").asText(), n.get("status").asText() + " " + n.path("digest").asText());
      if (previous != null) {
        throw new AssertionError("run id " + n.get("run_id").asText() + " recorded twice");
      }
    }
    return d;
  }

  @Override
  public void close() {
    for (AutoCloseable c : List.copyOf(toClose)) {
      try {
        c.close();
      } catch (Exception e) {
        // closing what is left of a test
      }
    }
    threads.shutdownNow();
    Hazelcast.shutdownAll(); // whatever a failed test left running
  }
}
