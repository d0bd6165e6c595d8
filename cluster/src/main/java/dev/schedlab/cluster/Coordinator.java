package dev.schedlab.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import dev.schedlab.engine.Version;
import dev.schedlab.lab.matrix.CellExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code schedlab matrix --cluster}: the coordinator. It is a cluster member itself (running {@code
 * jobs} cells, or none with 0), admits workers through {@link Admission}, hands out cells through
 * {@link Dispatcher} and hands each result back to the matrix runner, which appends it to {@code
 * cells.jsonl}. When every cell is recorded it tells the workers the matrix is complete and leaves.
 * Stopped before that, it leaves the workers waiting: started again with the same matrix, it gets
 * the same cluster name, resumes from {@code cells.jsonl}, and the workers join it again.
 */
public final class Coordinator implements CellExecutor {
  /** How long the workers get to acknowledge the end of the matrix. */
  private static final long FINISH_WAIT_S = 10;

  private final ClusterSettings settings;
  private final int jobs;
  private final @Nullable Path pluginsDir;
  private final Consumer<String> log;
  private final MemberRuntime.CellRunner runner;

  /**
   * A coordinator with {@code settings}, running {@code jobs} cells itself, with the plugins of
   * {@code pluginsDir} (null: none); {@code log} gets what happens in the cluster, one line each.
   */
  public Coordinator(
      ClusterSettings settings, int jobs, @Nullable Path pluginsDir, Consumer<String> log) {
    this(settings, jobs, pluginsDir, log, MemberRuntime.ENGINE);
  }

  Coordinator(
      ClusterSettings settings,
      int jobs,
      @Nullable Path pluginsDir,
      Consumer<String> log,
      MemberRuntime.CellRunner runner) {
    this.settings = settings;
    this.jobs = jobs;
    this.pluginsDir = pluginsDir;
    this.log = log;
    this.runner = runner;
  }

  @Override
  public void execute(Job job, Results results) throws IOException, InterruptedException {
    if (job.todo().isEmpty()) {
      return; // every cell is in cells.jsonl already: no cluster to start
    }
    String id = MatrixId.of(job.cells());
    PluginManifest manifest = PluginManifest.of(pluginsDir);
    Admission admission = new Admission(Version.current(), manifest, pluginsDir, log);
    Path mirror = Files.createTempDirectory("schedlab-coordinator-");
    MemberRuntime runtime = new MemberRuntime(mirror, runner, admission);
    runtime.ready(job.host());
    HazelcastInstance hz;
    try {
      hz =
          Hazelcast.newHazelcastInstance(
              MemberConfig.of(
                  MatrixId.clusterName(id, settings.secret()),
                  settings.bind(),
                  true,
                  List.of(),
                  MemberConfig.COORDINATOR,
                  jobs,
                  runtime));
    } catch (ClusterException e) {
      throw new IOException(e.getMessage(), e);
    } catch (HazelcastException e) {
      throw new IOException(
          "cannot start the coordinator on "
              + settings.bind()
              + ": "
              + e.getMessage()
              + " (is the port in use?)",
          e);
    }
    try {
      refuseSecondCoordinator(hz, id);
      hz.getCluster()
          .addMembershipListener(
              new MembershipListener() {
                @Override
                public void memberAdded(MembershipEvent e) {
                  log.accept("member " + address(e.getMember()) + " joined");
                }

                @Override
                public void memberRemoved(MembershipEvent e) {
                  admission.remove(e.getMember().getUuid());
                  log.accept("member " + address(e.getMember()) + " left");
                }
              });
      Member self = hz.getCluster().getLocalMember();
      log.accept(
          "cluster of matrix "
              + id
              + ": coordinator on "
              + address(self)
              + ", "
              + job.todo().size()
              + " cells to run; start workers with: schedlab worker --join "
              + address(self)
              + " --matrix "
              + id
              + " (and the same secret as "
              + settings.secret().origin()
              + ")");
      admission.admit(self.getUuid(), jobs);
      new Dispatcher(hz, admission, log).run(job.todo(), results);
      finishWorkers(hz);
    } finally {
      if (hz.getLifecycleService().isRunning()) {
        hz.getLifecycleService().terminate(); // nothing is kept in the cluster to hand over
      }
      deleteTree(mirror);
    }
  }

  /** Two coordinators of one matrix would both hand out cells: the second one stops. */
  private static void refuseSecondCoordinator(HazelcastInstance hz, String id) throws IOException {
    for (Member m : hz.getCluster().getMembers()) {
      if (!m.localMember() && MemberConfig.COORDINATOR.equals(m.getAttribute(MemberConfig.ROLE))) {
        throw new IOException(
            "another coordinator of matrix "
                + id
                + " is running at "
                + address(m)
                + "; stop it first");
      }
    }
  }

  /** Tells every admitted worker that the matrix is complete, waiting a little for each. */
  private void finishWorkers(HazelcastInstance hz) throws InterruptedException {
    IExecutorService control = hz.getExecutorService(MemberConfig.CONTROL);
    List<Future<Boolean>> acks = new ArrayList<>();
    for (Member m : hz.getCluster().getMembers()) {
      if (!m.localMember() && MemberConfig.WORKER.equals(m.getAttribute(MemberConfig.ROLE))) {
        acks.add(control.submitToMember(new Calls.Finish(), m));
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(FINISH_WAIT_S);
    for (Future<Boolean> f : acks) {
      try {
        f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        // a worker that left meanwhile, or too slow to answer: it stops when the coordinator leaves
      }
    }
  }

  static String address(Member m) {
    return m.getAddress().getHost() + ":" + m.getAddress().getPort();
  }

  static void deleteTree(@Nullable Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (var s = Files.walk(dir)) {
      s.sorted((a, b) -> b.getNameCount() - a.getNameCount())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory left behind is harmless
    }
  }
}
