package dev.schedlab.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin.Fault;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellLog;
import dev.schedlab.lab.matrix.CellResult;
import dev.schedlab.lab.matrix.MatrixFile;
import dev.schedlab.lab.matrix.MatrixPlan;
import dev.schedlab.lab.matrix.MatrixRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Matrices on in-process clusters (a coordinator and workers, each its own Hazelcast instance bound
 * to 127.0.0.1 with an explicit member list): every cell recorded once with the digest of the local
 * run, when a worker dies in the middle of a cell and when the coordinator stops and starts again;
 * a cell whose plugin never returns fails alone on its member.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterMatrixTest {
  @TempDir Path tmp;
  private ClusterFixture f;
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void fixture() throws Exception {
    f = new ClusterFixture(tmp);
  }

  @AfterEach
  void stopEverything() {
    release.countDown();
    f.close();
  }

  @Test
  void aWorkerKilledInTheMiddleOfACellLosesNothingAndNothingIsRecordedTwice() throws Exception {
    Map<String, String> local = f.local(tmp.resolve("local"));
    int port = ClusterFixture.freePort();
    String id = f.matrixId();
    ClusterSettings workers =
        ClusterFixture.settings(ClusterFixture.freePort(), List.of(port), ClusterFixture.SECRET);
    // Worker "doomed" takes one cell and hangs in it until it is killed; worker "steady" waits
    // until then before running anything, so the doomed worker surely gets a cell.
    CountDownLatch doomedStarted = new CountDownLatch(1);
    AtomicReference<String> doomedCell = new AtomicReference<>();
    Worker doomed =
        new Worker(
            new Worker.Settings(id, workers, 1, null),
            s -> System.out.println("doomed: " + s),
            (cell, host) -> {
              doomedCell.set(cell.runId());
              doomedStarted.countDown();
              await(release);
              return MatrixRunner.runCell(cell, host);
            });
    Set<String> ranSteadily = ConcurrentHashMap.newKeySet();
    Worker steady =
        new Worker(
            new Worker.Settings(id, workers, 1, null),
            s -> System.out.println("steady: " + s),
            (cell, host) -> {
              await(doomedStarted);
              ranSteadily.add(cell.runId());
              return MatrixRunner.runCell(cell, host);
            });
    StringBuffer coordinatorLog = new StringBuffer();
    Coordinator coordinator =
        new Coordinator(
            ClusterFixture.settings(port, List.of(), ClusterFixture.SECRET),
            0,
            f.plugins,
            s -> {
              coordinatorLog.append(s).append('\n');
              System.out.println("coordinator: " + s);
            });
    Path out = tmp.resolve("cluster");
    Future<MatrixRunner.Outcome> run = f.coordinate(out, coordinator, MatrixRunner.Listener.NONE);
    Future<Integer> steadyExit = f.start(steady);
    f.start(doomed);

    assertThat(doomedStarted.await(120, TimeUnit.SECONDS)).as(coordinatorLog.toString()).isTrue();
    doomed.close(); // its Hazelcast instance terminates at once, in the middle of the cell
    MatrixRunner.Outcome o = run.get(120, TimeUnit.SECONDS);

    assertThat(o.ran()).isEqualTo(local.size());
    assertThat(ClusterFixture.digests(out)).isEqualTo(local);
    assertThat(ranSteadily).contains(doomedCell.get());
    assertThat(coordinatorLog.toString())
        .contains("cell ")
        .contains(doomedCell.get() + ") runs again");
    assertThat(steadyExit.get(60, TimeUnit.SECONDS)).isEqualTo(Worker.DONE);
    // The matrix exercised what a member must receive: a plugin zip and a referenced machine file.
    assertThat(local.size()).isEqualTo(3 * 2 * 2);
    assertThat(local.values().stream().distinct()).hasSizeGreaterThan(6);
  }

  @Test
  void aStoppedCoordinatorResumesFromCellsJsonlAndItsWorkerJoinsItAgain() throws Exception {
    Map<String, String> local = f.local(tmp.resolve("local"));
    int port = ClusterFixture.freePort();
    String id = f.matrixId();
    AtomicInteger workerCells = new AtomicInteger();
    StringBuffer workerLog = new StringBuffer();
    Worker worker =
        new Worker(
            new Worker.Settings(
                id,
                ClusterFixture.settings(
                    ClusterFixture.freePort(), List.of(port), ClusterFixture.SECRET),
                1,
                null),
            s -> workerLog.append(s).append('\n'),
            (cell, host) -> {
              workerCells.incrementAndGet();
              return MatrixRunner.runCell(cell, host);
            });
    Path out = tmp.resolve("cluster");
    ClusterSettings coordinatorSettings =
        ClusterFixture.settings(port, List.of(), ClusterFixture.SECRET);
    // The first coordinator runs no cells itself and stops (as on Ctrl-C) after recording five.
    Future<MatrixRunner.Outcome> first =
        f.coordinate(
            out,
            new Coordinator(coordinatorSettings, 0, f.plugins, s -> {}),
            (done, total, cell, result) -> {
              if (done == 5) {
                throw new IllegalStateException("coordinator stopped");
              }
            });
    Future<Integer> workerExit = f.start(worker);
    assertThat(catching(first)).hasMessageContaining("coordinator stopped");
    assertThat(ClusterFixture.digests(out)).hasSize(5);

    MatrixRunner.Outcome second =
        f.coordinate(
                out,
                new Coordinator(coordinatorSettings, 0, f.plugins, s -> {}),
                MatrixRunner.Listener.NONE)
            .get(120, TimeUnit.SECONDS);

    assertThat(second.reused()).isEqualTo(5);
    assertThat(second.ran()).isEqualTo(local.size() - 5);
    assertThat(ClusterFixture.digests(out)).isEqualTo(local);
    assertThat(workerExit.get(60, TimeUnit.SECONDS)).isEqualTo(Worker.DONE);
    assertThat(workerLog.toString())
        .contains("the coordinator left before the matrix was complete");
    // Every cell ran on the worker; those in flight when the first coordinator stopped, twice.
    assertThat(workerCells.get()).isGreaterThanOrEqualTo(local.size());
  }

  @Test
  void aCellWhosePluginNeverReturnsFailsAloneAndTheMemberGoesOn() throws Exception {
    Fault loops = Fault.LOOPS_FOREVER;
    Path m = tmp.resolve("matrix/loops.yaml");
    Files.writeString(
        m,
        String.join(
            "\n",
            "name: loops",
            "workloads: [tiny.yaml]",
            "set: [kernel.params.plugin.hook_budget=200ms, 'workload.tasks[0].program[1].user=1500us']",
            "plugins: [none, " + loops.id() + "]",
            "seeds: [1, 2, 3]",
            ""));
    FaultPlugin.RELEASE_LOOPS.set(false);
    // A coordinator alone, one cell at a time: after each stuck cell the next one still runs.
    Coordinator coordinator =
        new Coordinator(
            ClusterFixture.settings(ClusterFixture.freePort(), List.of(), ClusterFixture.SECRET),
            1,
            null,
            s -> {});
    try (PluginHost host = PluginHost.inProcess(loops.plugin());
        CellLog log = CellLog.open(tmp.resolve("loops"))) {
      List<Cell> cells = MatrixPlan.cells(MatrixFile.load(m), host.allowedCombinations());
      MatrixRunner.Outcome o =
          MatrixRunner.run(
              "loops", cells, host, log, coordinator, false, MatrixRunner.Listener.NONE);
      assertThat(o.failed()).isEqualTo(3);
      assertThat(o.results().values()).filteredOn(CellResult::ok).hasSize(3);
      assertThat(o.results().values())
          .extracting(CellResult::error)
          .filteredOn(e -> e != null)
          .allMatch(
              e ->
                  e.startsWith(
                      "run failed: plugin "
                          + loops.id()
                          + " did not return from hook H5 onTick within its wall-clock budget of 0.200 s"));
    } finally {
      FaultPlugin.RELEASE_LOOPS.set(true);
    }
  }

  private static Throwable catching(Future<?> f) {
    try {
      f.get(120, TimeUnit.SECONDS);
      return new AssertionError("no exception");
    } catch (Exception e) {
      return e.getCause() == null ? e : e.getCause();
    }
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
