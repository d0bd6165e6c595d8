package dev.schedlab.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import com.hazelcast.core.LifecycleEvent;
import dev.schedlab.engine.Version;
import dev.schedlab.engine.plugin.PluginHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code schedlab worker}: a member that runs the cells the coordinator of one matrix hands it. It
 * joins, says hello (refused, it stops with the reason), takes the coordinator's plugins (checked
 * by hash) or reads its own shared directory, reports ready and runs cells until the coordinator
 * says the matrix is complete. When the coordinator goes away before that, it leaves the cluster
 * and joins again as soon as the coordinator is back.
 */
public final class Worker implements AutoCloseable {
  /** Exit status: the matrix is complete. */
  public static final int DONE = 0;

  /** Exit status: stopped ({@link #close()}). */
  public static final int STOPPED = 1;

  /** Exit status: refused by the coordinator. */
  public static final int REFUSED = 2;

  /** Seconds between attempts to find the coordinator. */
  static final long RETRY_S = 3;

  /** Seconds a control call (hello, plugin transfer, ready) may take. */
  static final long CALL_TIMEOUT_S = 60;

  /**
   * What a worker needs.
   *
   * @param matrixId the matrix whose cells it runs ({@code schedlab matrix --list} prints it)
   * @param cluster bind address, coordinator addresses and secret
   * @param jobs cells run at once
   * @param sharedPlugins a plugins directory the coordinator also uses (checked by hash), or null
   *     to receive the coordinator's plugins
   * @param version the schedlab version it reports ({@link Version#current()})
   */
  public record Settings(
      String matrixId,
      ClusterSettings cluster,
      int jobs,
      @Nullable Path sharedPlugins,
      String version) {
    /** Settings reporting this build's version. */
    public Settings(
        String matrixId, ClusterSettings cluster, int jobs, @Nullable Path sharedPlugins) {
      this(matrixId, cluster, jobs, sharedPlugins, Version.current());
    }
  }

  private final Settings settings;
  private final Consumer<String> log;
  private final MemberRuntime.CellRunner runner;
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile @Nullable HazelcastInstance current;
  private @Nullable Path received;
  private @Nullable PluginManifest receivedManifest;
  private @Nullable PluginHost host;

  /** A worker; {@code log} gets what it does, one line each. */
  public Worker(Settings settings, Consumer<String> log) {
    this(settings, log, MemberRuntime.ENGINE);
  }

  Worker(Settings settings, Consumer<String> log, MemberRuntime.CellRunner runner) {
    this.settings = settings;
    this.log = log;
    this.runner = runner;
  }

  /**
   * Takes part until the matrix is complete ({@link #DONE}), the coordinator refuses this member
   * ({@link #REFUSED}) or {@link #close()} is called ({@link #STOPPED}).
   */
  public int run() throws ClusterException, InterruptedException, IOException {
    String name = MatrixId.clusterName(settings.matrixId(), settings.cluster().secret());
    Path mirror = Files.createTempDirectory("schedlab-worker-");
    boolean toldMissing = false;
    try {
      while (closed.getCount() > 0) {
        MemberRuntime runtime = new MemberRuntime(mirror, runner, null);
        HazelcastInstance hz = start(name, runtime);
        try {
          Member coordinator = coordinator(hz);
          if (coordinator == null && !toldMissing) {
            log.accept(
                "no coordinator of matrix "
                    + settings.matrixId()
                    + " answers at "
                    + settings.cluster().join()
                    + "; trying again every "
                    + RETRY_S
                    + " s (check the"
                    + " address, that the coordinator runs this matrix id, and that both read the"
                    + " same secret: a member with another secret cannot join)");
            toldMissing = true;
          } else if (coordinator != null) {
            toldMissing = false;
            Integer status = session(hz, coordinator, runtime);
            if (status != null) {
              return status;
            }
          }
        } finally {
          current = null;
          if (hz.getLifecycleService().isRunning()) {
            hz.getLifecycleService().terminate(); // nothing is kept in the cluster to hand over
          }
        }
        closed.await(RETRY_S, TimeUnit.SECONDS);
      }
      return STOPPED;
    } finally {
      if (host != null) {
        host.close();
      }
      Coordinator.deleteTree(mirror);
      Coordinator.deleteTree(received);
    }
  }

  private HazelcastInstance start(String name, MemberRuntime runtime) throws ClusterException {
    try {
      HazelcastInstance hz =
          Hazelcast.newHazelcastInstance(
              MemberConfig.of(
                  name,
                  settings.cluster().bind(),
                  false,
                  settings.cluster().join(),
                  MemberConfig.WORKER,
                  settings.jobs(),
                  runtime));
      current = hz;
      if (closed.getCount() == 0) {
        hz.getLifecycleService().terminate();
      }
      return hz;
    } catch (HazelcastException e) {
      throw new ClusterException(
          "cannot start a member on " + settings.cluster().bind() + ": " + e.getMessage(), e);
    }
  }

  private static @Nullable Member coordinator(HazelcastInstance hz) {
    if (!hz.getLifecycleService().isRunning()) {
      return null;
    }
    for (Member m : hz.getCluster().getMembers()) {
      if (MemberConfig.COORDINATOR.equals(m.getAttribute(MemberConfig.ROLE))) {
        return m;
      }
    }
    return null;
  }

  /**
   * One membership: hello, plugins, ready, cells. Returns the exit status, or null when the
   * coordinator went away (join again).
   */
  private @Nullable Integer session(HazelcastInstance hz, Member coordinator, MemberRuntime runtime)
      throws InterruptedException, IOException {
    CountDownLatch lost = new CountDownLatch(1);
    hz.getCluster()
        .addMembershipListener(
            new MembershipListener() {
              @Override
              public void memberAdded(MembershipEvent e) {}

              @Override
              public void memberRemoved(MembershipEvent e) {
                if (e.getMember().getUuid().equals(coordinator.getUuid())) {
                  lost.countDown();
                }
              }
            });
    hz.getLifecycleService()
        .addLifecycleListener(
            e -> {
              if (e.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN) {
                lost.countDown();
              }
            });
    if (!hz.getCluster().getMembers().contains(coordinator)) {
      return null;
    }
    IExecutorService control = hz.getExecutorService(MemberConfig.CONTROL);
    Member self = hz.getCluster().getLocalMember();
    String me = Coordinator.address(self);
    try {
      PluginManifest shared =
          settings.sharedPlugins() == null ? null : PluginManifest.of(settings.sharedPlugins());
      Calls.Welcome welcome =
          call(
              control,
              new Calls.Hello(new Calls.HelloData(self.getUuid(), me, settings.version(), shared)),
              coordinator);
      if (welcome.refusal() != null) {
        log.accept(
            "refused by the coordinator of matrix "
                + settings.matrixId()
                + ": "
                + welcome.refusal());
        return REFUSED;
      }
      PluginManifest has = plugins(control, coordinator, welcome.manifest(), shared);
      if (has == null) {
        return REFUSED;
      }
      runtime.ready(host);
      String refusal =
          call(control, new Calls.Ready(self.getUuid(), settings.jobs(), has), coordinator);
      if (refusal != null) {
        log.accept("refused by the coordinator of matrix " + settings.matrixId() + ": " + refusal);
        return REFUSED;
      }
    } catch (ExecutionException | TimeoutException e) {
      log.accept("lost the coordinator while joining (" + e.getMessage() + "); joining again");
      return null;
    }
    log.accept(
        "joined matrix "
            + settings.matrixId()
            + " as "
            + me
            + " (coordinator "
            + Coordinator.address(coordinator)
            + "), "
            + settings.jobs()
            + " job"
            + (settings.jobs() == 1 ? "" : "s"));
    while (true) {
      if (runtime.finished().await(200, TimeUnit.MILLISECONDS)) {
        log.accept(
            "matrix "
                + settings.matrixId()
                + " complete; "
                + runtime.cellsRun()
                + " cells ran here");
        return DONE;
      }
      if (closed.getCount() == 0) {
        return STOPPED;
      }
      if (lost.getCount() == 0) {
        log.accept(
            "the coordinator left before the matrix was complete; waiting for it to come"
                + " back ("
                + runtime.cellsRun()
                + " cells ran here)");
        return null;
      }
    }
  }

  /**
   * The plugins cells run with: the shared directory, or the coordinator's, received and checked by
   * hash (kept across memberships while the coordinator's do not change). Null when refused.
   */
  private @Nullable PluginManifest plugins(
      IExecutorService control,
      Member coordinator,
      PluginManifest expected,
      @Nullable PluginManifest shared)
      throws ExecutionException, TimeoutException, InterruptedException, IOException {
    if (shared != null) {
      if (host == null) {
        host = PluginHost.open(settings.sharedPlugins());
      }
      return shared;
    }
    if (expected.equals(receivedManifest)) {
      return receivedManifest;
    }
    if (host != null) {
      host.close();
      host = null;
    }
    Coordinator.deleteTree(received);
    received = Files.createTempDirectory("schedlab-worker-plugins-");
    for (var e : expected.hashes().entrySet()) {
      SortedMap<String, byte[]> files =
          call(control, new Calls.FetchPlugin(e.getKey()), coordinator);
      String got = PluginManifest.hash(e.getKey(), files);
      if (!got.equals(e.getValue())) {
        log.accept(
            "plugin "
                + e.getKey()
                + " arrived with SHA-256 "
                + got
                + " but the coordinator"
                + " announced "
                + e.getValue()
                + "; not running its cells");
        return null;
      }
      PluginManifest.write(received, files);
    }
    PluginManifest has = PluginManifest.of(received);
    host = PluginHost.open(received);
    receivedManifest = has;
    return has;
  }

  private static <T> T call(IExecutorService control, Calls.Call<T> c, Member to)
      throws ExecutionException, TimeoutException, InterruptedException {
    return control.submitToMember(c, to).get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
  }

  /** Stops the worker: it leaves the cluster at once, as a killed process would. */
  @Override
  public void close() {
    closed.countDown();
    HazelcastInstance hz = current;
    if (hz != null) {
      hz.getLifecycleService().terminate();
    }
  }
}
