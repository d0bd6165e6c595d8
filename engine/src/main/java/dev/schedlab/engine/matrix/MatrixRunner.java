package dev.schedlab.engine.matrix;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.Version;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.HookBudget;
import dev.schedlab.engine.plugin.PluginEjection;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginSupervisor;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.ScenarioException;
import dev.schedlab.engine.workload.Reports;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs the cells of a matrix that the log does not hold yet, {@code jobs} at a time. Each cell is
 * an independent, single-threaded {@link Simulation#run} with its own fresh extensions; only whole
 * cells run in parallel, so every digest is the one a lone {@code schedlab run} gives. A cell that
 * fails is recorded with its error and the others go on; a misbehaving plugin is ejected and the
 * cell completes on mainline, recorded as {@code ejected}. Each result is appended to the log as
 * soon as the cell finishes.
 */
public final class MatrixRunner {
  /** Told about every cell that finishes in this invocation (progress display). */
  public interface Listener {
    /** {@code done} of {@code total} cells to run have finished; the last was {@code cell}. */
    void finished(int done, int total, Cell cell, CellResult result);

    /** No progress display. */
    Listener NONE = (d, t, c, r) -> { };
  }

  /**
   * What a matrix invocation ends with.
   *
   * @param cells the cells asked for, in order
   * @param results the result of every one of them, by run id
   * @param ran cells run in this invocation
   * @param reused cells taken from the log without running
   */
  public record Outcome(List<Cell> cells, Map<String, CellResult> results, int ran, int reused) {
    /** The number of cells that failed (now or in an earlier invocation). */
    public int failed() {
      return (int) cells.stream().filter(c -> !results.get(c.runId()).ok()).count();
    }
  }

  private MatrixRunner() {}

  /**
   * Runs the {@code cells} missing from {@code log} (and the failed ones when {@code retryFailed})
   * on {@code jobs} threads.
   */
  public static Outcome run(String matrix, List<Cell> cells, PluginHost host, CellLog log,
      int jobs, boolean retryFailed, Listener listener) throws IOException, InterruptedException {
    Map<String, CellResult> before = log.finished();
    List<Cell> todo = new ArrayList<>();
    for (Cell c : cells) {
      CellResult r = before.get(c.runId());
      if (r == null || (retryFailed && !r.ok())) {
        todo.add(c);
      }
    }
    BlockingQueue<Finished> done = new LinkedBlockingQueue<>();
    new Workers(new ConcurrentLinkedQueue<>(todo), host, done)
        .start(Math.max(1, Math.min(jobs, todo.size())));
    String version = Version.current();
    for (int i = 1; i <= todo.size(); i++) {
      Finished f = done.take();
      log.append(f.result(), f.result().toJsonLine(f.cell(), matrix, version));
      listener.finished(i, todo.size(), f.cell(), f.result());
    }
    Map<String, CellResult> all = log.finished();
    Map<String, CellResult> results = new LinkedHashMap<>();
    cells.forEach(c -> results.put(c.runId(), all.get(c.runId())));
    return new Outcome(cells, results, todo.size(), cells.size() - todo.size());
  }

  private record Finished(Cell cell, CellResult result) {}

  /**
   * The threads that run cells, each taking the next cell from the queue. A cell whose plugin call
   * exceeds its wall-clock budget is reported failed at once and its thread, stuck in the plugin,
   * is abandoned (a daemon: it ends with the process; what it might still produce is dropped); a
   * new worker takes its place, so the other cells go on at the same parallelism.
   */
  private record Workers(Queue<Cell> cells, PluginHost host, BlockingQueue<Finished> done) {
    private static final AtomicInteger NUMBER = new AtomicInteger();

    void start(int n) {
      for (int i = 0; i < n; i++) {
        startOne();
      }
    }

    private void startOne() {
      Thread t = new Thread(this::work, "schedlab-matrix-" + NUMBER.incrementAndGet());
      t.setDaemon(true);
      t.start();
    }

    private void work() {
      for (Cell c; (c = cells.poll()) != null; ) {
        Cell cell = c;
        AtomicBoolean reported = new AtomicBoolean();
        long start = System.nanoTime();
        CellResult r;
        try {
          r = runCell(cell, host, overrun -> {
            if (reported.compareAndSet(false, true)) {
              done.add(new Finished(cell, CellResult.failed(cell.runId(), cell.seed(),
                  "run failed: " + overrun.message(), millis(start))));
              startOne();
            }
          });
        } catch (Throwable t) { // an Error runCell lets through: the cell fails, the matrix goes on
          r = CellResult.failed(cell.runId(), cell.seed(), "internal error: " + t, millis(start));
        }
        if (!reported.compareAndSet(false, true)) {
          return; // abandoned after a budget overrun: a new worker took over
        }
        done.add(new Finished(cell, r));
      }
    }
  }

  /** Runs one cell; never throws (a failure becomes the result's error). */
  static CellResult runCell(Cell cell, PluginHost host) {
    return runCell(cell, host, null);
  }

  /**
   * Runs one cell, ejecting misbehaving plugins; {@code onOverrun} (may be null) is told about a
   * plugin call over its wall-clock budget. Never throws: a failure becomes the result's error.
   */
  static CellResult runCell(Cell cell, PluginHost host, Consumer<HookBudget.Overrun> onOverrun) {
    long start = System.nanoTime();
    Long seed = cell.seed();
    try {
      Scenario s = cell.scenario();
      seed = s.seed();
      RunOptions options = new RunOptions(PluginSupervisor.OnError.EJECT, false, onOverrun);
      RunResult r = Simulation.run(s, host.extensionsFor(s.plugins()), TraceSink.NONE, options);
      Map<String, Double> values = new LinkedHashMap<>();
      flatten("metric", r.metrics(), values);
      Map<String, Object> reports = new LinkedHashMap<>();
      Reports.json(s, r).forEach((id, v) -> reports.put(id, ((Map<?, ?>) v).get("report")));
      flatten("report", reports, values);
      return new CellResult(cell.runId(), seed, r.digest(), r.events(), r.simNs(), millis(start),
          null, values, r.ejections().stream().map(PluginEjection::summary).toList());
    } catch (ScenarioException e) {
      return CellResult.failed(cell.runId(), seed, "bad scenario: " + e.getMessage(), millis(start));
    } catch (PluginException e) {
      return CellResult.failed(cell.runId(), seed, "plugins: " + e.getMessage(), millis(start));
    } catch (SimulationException e) {
      return CellResult.failed(cell.runId(), seed, "run failed: " + e.getMessage(), millis(start));
    } catch (IllegalArgumentException e) {
      return CellResult.failed(cell.runId(), seed, "bad scenario: " + e.getMessage(), millis(start));
    } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
      return CellResult.failed(cell.runId(), seed, "internal error: " + e, millis(start));
    }
  }

  private static long millis(long startNs) {
    return (System.nanoTime() - startNs) / 1_000_000;
  }

  private static void flatten(String prefix, Object v, Map<String, Double> out) {
    if (v instanceof Map<?, ?> m) {
      m.forEach((k, x) -> flatten(prefix + "." + k, x, out));
    } else if (v instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        flatten(prefix + "[" + i + "]", l.get(i), out);
      }
    } else if (v instanceof Number n) {
      out.put(prefix, n.doubleValue());
    }
  }
}
