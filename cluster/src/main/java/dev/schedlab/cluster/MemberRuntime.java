package dev.schedlab.cluster;

import com.hazelcast.core.HazelcastInstance;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellResult;
import dev.schedlab.lab.matrix.MatrixRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * What a member's incoming calls act on (Hazelcast's user context holds it): the plugin host cells
 * run with, the directory the cells' files are written to, and on the coordinator its {@link
 * Admission}.
 */
final class MemberRuntime {
  /** The user-context key. */
  static final String KEY = "schedlab.runtime";

  /**
   * Runs one cell with the member's plugins: the engine's {@link MatrixRunner#start}, which answers
   * at once, failed, when a plugin call overruns its budget.
   */
  interface CellRunner {
    CellResult run(Cell cell, PluginHost host);
  }

  /** The engine's runner, as a local matrix runs cells. */
  static final CellRunner ENGINE = (cell, host) -> MatrixRunner.start(cell, host).join();

  private final Path mirror;
  private final CellRunner runner;
  private final @Nullable Admission admission;
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicInteger cellsRun = new AtomicInteger();
  private volatile @Nullable PluginHost host;

  MemberRuntime(Path mirror, CellRunner runner, @Nullable Admission admission) {
    this.mirror = mirror;
    this.runner = runner;
    this.admission = admission;
  }

  /** The runtime of the member {@code hz}. */
  static MemberRuntime of(HazelcastInstance hz) {
    Object r = hz.getUserContext().get(KEY);
    if (!(r instanceof MemberRuntime m)) {
      throw new IllegalStateException("not a schedlab member");
    }
    return m;
  }

  /** Cells may run from now on, with the plugins of {@code pluginHost}. */
  void ready(@Nullable PluginHost pluginHost) {
    this.host = pluginHost;
  }

  /** Runs the cell of {@code spec}. */
  CellResult run(CellSpec spec) throws IOException {
    PluginHost h = host;
    if (h == null) {
      throw new IllegalStateException("this member has not finished joining");
    }
    Cell cell = spec.toCell(mirror);
    CellResult r = runner.run(cell, h);
    cellsRun.incrementAndGet();
    if (r.error() == null) {
      return r;
    }
    // Error messages name the scenario at its path on the coordinator, as a local run would.
    String root = mirror.toAbsolutePath().normalize().toString();
    return new CellResult(
        r.runId(),
        r.seed(),
        r.digest(),
        r.events(),
        r.simNs(),
        r.wallMs(),
        r.error().replace(root, ""),
        r.values(),
        r.ejections());
  }

  /** The coordinator's admission; throws on a worker. */
  Admission admission() {
    if (admission == null) {
      throw new IllegalStateException("this member is not the coordinator");
    }
    return admission;
  }

  /** The coordinator says the matrix is complete. */
  void finish() {
    finished.countDown();
  }

  /** Released by {@link #finish()}. */
  CountDownLatch finished() {
    return finished;
  }

  /** Cells this member ran. */
  int cellsRun() {
    return cellsRun.get();
  }
}
