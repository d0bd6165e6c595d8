package dev.schedlab.benchmarks;

import dev.schedlab.cluster.ClusterSettings;
import dev.schedlab.cluster.Coordinator;
import dev.schedlab.cluster.Endpoint;
import dev.schedlab.cluster.MatrixId;
import dev.schedlab.cluster.Secret;
import dev.schedlab.cluster.Worker;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.CellLog;
import dev.schedlab.lab.matrix.LocalCellExecutor;
import dev.schedlab.lab.matrix.MatrixFile;
import dev.schedlab.lab.matrix.MatrixPlan;
import dev.schedlab.lab.matrix.MatrixRunner;
import dev.schedlab.lab.matrix.MatrixSpec;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cells per minute of a matrix on a cluster of 1, 2 and 3 members, each running one cell at a time:
 * a coordinator and workers in this JVM (each its own Hazelcast instance on 127.0.0.1, so cells
 * really travel through the cluster, while the JIT compiles the engine once for all). Two local
 * runs of the whole matrix warm the JIT first. For each cluster size it reports the rate over the
 * whole run and the rate once every member is admitted, and the process CPU time per cell.
 *
 * <p>HOW TO RUN: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.schedlab.benchmarks.ClusterThroughput examples/matrix.yaml cli/target/plugins [MEMBERS...]}
 * (members default 1 2 3; a size may be repeated, as 1 2 3 1, to see the drift of a shared
 * machine).
 */
public final class ClusterThroughput {
  /** Local runs of the whole matrix before measuring, for the JIT. */
  static final int WARMUP_PASSES = 2;

  private ClusterThroughput() {}

  /** Entry point: MATRIX PLUGINS_DIR [MEMBERS...]. */
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: ClusterThroughput MATRIX PLUGINS_DIR [MEMBERS...]");
      System.exit(2);
    }
    MatrixSpec spec = MatrixFile.load(Path.of(args[0]));
    Path plugins = Path.of(args[1]);
    List<Integer> sizes = new ArrayList<>();
    for (int i = 2; i < args.length; i++) {
      sizes.add(Integer.parseInt(args[i]));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(1, 2, 3);
    }
    Secret secret = Secret.resolve(null, Map.of(Secret.ENV, "throughput-" + System.nanoTime()));
    try (PluginHost host = PluginHost.open(plugins)) {
      List<Cell> cells = MatrixPlan.cells(spec, host.allowedCombinations());
      for (int pass = 1; pass <= WARMUP_PASSES; pass++) {
        long t0 = System.nanoTime();
        run(spec, cells, host, new LocalCellExecutor(2), MatrixRunner.Listener.NONE);
        System.out.printf(
            Locale.ROOT,
            "warm-up %d: %d cells locally (-j 2) in %.1f s%n",
            pass,
            cells.size(),
            (System.nanoTime() - t0) / 1e9);
      }
      for (int members : sizes) {
        measure(spec, cells, host, plugins, secret, members);
      }
    }
    System.exit(0);
  }

  private static void measure(
      MatrixSpec spec, List<Cell> cells, PluginHost host, Path plugins, Secret secret, int members)
      throws Exception {
    int port = 5701 + 10 * members;
    AtomicLong lastAdmission = new AtomicLong();
    Coordinator coordinator =
        new Coordinator(
            new ClusterSettings(new Endpoint("127.0.0.1", port), List.of(), secret),
            1,
            plugins,
            line -> {
              if (line.contains(" admitted") || line.contains("coordinator on")) {
                lastAdmission.set(System.nanoTime());
              }
            });
    List<Worker> workers = new ArrayList<>();
    for (int w = 1; w < members; w++) {
      workers.add(
          new Worker(
              new Worker.Settings(
                  MatrixId.of(cells),
                  new ClusterSettings(
                      new Endpoint("127.0.0.1", port + w),
                      List.of(new Endpoint("127.0.0.1", port)),
                      secret),
                  1,
                  null),
              line -> {}));
    }
    ExecutorService threads = Executors.newCachedThreadPool();
    long[] recorded = new long[cells.size()];
    long cpu0 = cpuNs();
    long start = System.nanoTime();
    Future<?> run =
        threads.submit(
            () -> {
              run(
                  spec,
                  cells,
                  host,
                  coordinator,
                  (done, total, c, r) -> recorded[done - 1] = System.nanoTime());
              return null;
            });
    Thread.sleep(500); // the coordinator first: a worker that finds none waits a few seconds
    List<Future<Integer>> exits = new ArrayList<>();
    workers.forEach(w -> exits.add(threads.submit(w::run)));
    run.get();
    long end = System.nanoTime();
    for (Future<Integer> e : exits) {
      e.get();
    }
    long cpu = cpuNs() - cpu0;
    threads.shutdown();
    long from = lastAdmission.get();
    int after = 0;
    for (long t : recorded) {
      after += t > from ? 1 : 0;
    }
    double wall = (end - start) / 1e9;
    double steady = (recorded[recorded.length - 1] - from) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "%d member(s): %d cells in %.1f s = %.0f cells/min; with every"
            + " member admitted: %d cells in %.1f s = %.0f cells/min; %.0f ms CPU per cell%n",
        members,
        cells.size(),
        wall,
        cells.size() * 60 / wall,
        after,
        steady,
        after * 60 / steady,
        cpu / 1e6 / cells.size());
  }

  private static void run(
      MatrixSpec spec,
      List<Cell> cells,
      PluginHost host,
      CellExecutor executor,
      MatrixRunner.Listener listener)
      throws Exception {
    Path out = Files.createTempDirectory("schedlab-throughput-");
    try (CellLog log = CellLog.open(out)) {
      MatrixRunner.run(spec.name(), cells, host, log, executor, false, listener);
    }
  }

  private static long cpuNs() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
