package dev.schedlab.lab.matrix;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.Version;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.HookBudget;
import dev.schedlab.engine.plugin.PluginEjection;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.PluginSupervisor;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.workload.Reports;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Runs the cells of a matrix that the log does not hold yet, with a {@link CellExecutor} (this
 * machine's cores, or a cluster). Each cell is an independent, single-threaded {@link
 * Simulation#run} with its own fresh extensions; only whole cells run in parallel, so every digest
 * is the one a lone {@code schedlab run} gives. A cell that fails is recorded with its error and
 * the others go on; a misbehaving plugin is ejected and the cell completes on mainline, recorded as
 * {@code ejected}. Each result is appended to the log as soon as the cell finishes.
 */
public final class MatrixRunner {
  /** Told about every cell that finishes in this invocation (progress display). */
  public interface Listener {
    /** {@code done} of {@code total} cells to run have finished; the last was {@code cell}. */
    void finished(int done, int total, Cell cell, CellResult result);

    /** No progress display. */
    Listener NONE = (d, t, c, r) -> {};
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
      return (int)
          cells.stream().filter(c -> !Objects.requireNonNull(results.get(c.runId())).ok()).count();
    }
  }

  private MatrixRunner() {}

  /**
   * Runs the {@code cells} missing from {@code log} (and the failed ones when {@code retryFailed})
   * on {@code jobs} threads of this machine.
   */
  public static Outcome run(
      String matrix,
      List<Cell> cells,
      PluginHost host,
      CellLog log,
      int jobs,
      boolean retryFailed,
      Listener listener)
      throws IOException, InterruptedException {
    return run(matrix, cells, host, log, new LocalCellExecutor(jobs), retryFailed, listener);
  }

  /** As {@link #run(String, List, PluginHost, CellLog, CellExecutor, boolean, Listener)}. */
  public static Outcome run(
      String matrix,
      List<Cell> cells,
      Plugins plugins,
      CellLog log,
      CellExecutor executor,
      boolean retryFailed,
      Listener listener)
      throws IOException, InterruptedException {
    return run(matrix, cells, plugins.host(), log, executor, retryFailed, listener);
  }

  /**
   * Runs the {@code cells} missing from {@code log} (and the failed ones when {@code retryFailed})
   * with {@code executor}. Each run id is recorded at most once per invocation, whatever the
   * executor hands back.
   */
  public static Outcome run(
      String matrix,
      List<Cell> cells,
      PluginHost host,
      CellLog log,
      CellExecutor executor,
      boolean retryFailed,
      Listener listener)
      throws IOException, InterruptedException {
    Map<String, CellResult> before = log.finished();
    List<Cell> todo = new ArrayList<>();
    for (Cell c : cells) {
      CellResult r = before.get(c.runId());
      if (r == null || (retryFailed && !r.ok())) {
        todo.add(c);
      }
    }
    Set<String> wanted = new HashSet<>();
    todo.forEach(c -> wanted.add(c.runId()));
    Set<String> recorded = new HashSet<>();
    String version = Version.current();
    executor.execute(
        new CellExecutor.Job(matrix, cells, todo, host),
        (c, r) -> {
          if (!wanted.contains(c.runId()) || !recorded.add(c.runId())) {
            return; // not asked for, or recorded already: cells.jsonl holds each cell once
          }
          log.append(r, r.toJsonLine(c, matrix, version));
          listener.finished(recorded.size(), todo.size(), c, r);
        });
    if (recorded.size() != todo.size()) {
      throw new IllegalStateException(
          "the executor returned with " + (todo.size() - recorded.size()) + " cell(s) not run");
    }
    Map<String, CellResult> all = log.finished();
    Map<String, CellResult> results = new LinkedHashMap<>();
    cells.forEach(c -> results.put(c.runId(), all.get(c.runId())));
    return new Outcome(cells, results, todo.size(), cells.size() - todo.size());
  }

  private static final AtomicInteger THREADS = new AtomicInteger();

  /**
   * Starts {@code cell} on a thread of its own. The future completes with the cell's result, or at
   * once with a failed result when a plugin call exceeds its wall-clock budget: the thread, stuck
   * in the plugin, is then abandoned (a daemon, it ends with the process; what it might still
   * produce is dropped), so whoever waits goes on. Every executor runs cells through here, on this
   * machine or on a cluster member.
   */
  public static CompletableFuture<CellResult> start(Cell cell, PluginHost host) {
    CompletableFuture<CellResult> result = new CompletableFuture<>();
    long start = System.nanoTime();
    Thread t =
        new Thread(
            () -> {
              CellResult r;
              try {
                r =
                    runCell(
                        cell,
                        host,
                        overrun ->
                            result.complete(
                                CellResult.failed(
                                    cell.runId(),
                                    cell.seed(),
                                    "run failed: " + overrun.message(),
                                    millis(start))));
              } catch (
                  Throwable
                      x) { // an Error runCell lets through: the cell fails, the matrix goes on
                r =
                    CellResult.failed(
                        cell.runId(), cell.seed(), "internal error: " + x, millis(start));
              }
              result.complete(r); // no effect after an overrun
            },
            "schedlab-matrix-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    t.start();
    return result;
  }

  /** Runs one cell on this thread; never throws (a failure becomes the result's error). */
  public static CellResult runCell(Cell cell, PluginHost host) {
    return runCell(cell, host, null);
  }

  /**
   * Runs one cell, ejecting misbehaving plugins; {@code onOverrun} (may be null) is told about a
   * plugin call over its wall-clock budget. Never throws: a failure becomes the result's error.
   */
  static CellResult runCell(
      Cell cell, PluginHost host, @Nullable Consumer<HookBudget.Overrun> onOverrun) {
    long start = System.nanoTime();
    Long seed = cell.seed();
    try {
      Scenario s = cell.scenario();
      seed = s.seed();
      RunOptions options = new RunOptions(PluginSupervisor.OnError.EJECT, false, onOverrun);
      RunResult r =
          Simulation.run(s.config(), host.extensionsFor(s.plugins()), TraceSink.NONE, options);
      Map<String, Double> values = new LinkedHashMap<>();
      flatten("metric", r.metrics(), values);
      Map<String, Object> reports = new LinkedHashMap<>();
      Reports.json(s.workload().tools(), r)
          .forEach((id, v) -> reports.put(id, ((Map<?, ?>) v).get("report")));
      flatten("report", reports, values);
      return new CellResult(
          cell.runId(),
          seed,
          r.digest(),
          r.events(),
          r.simNs(),
          millis(start),
          null,
          values,
          r.ejections().stream().map(PluginEjection::summary).toList());
    } catch (ScenarioException e) {
      return CellResult.failed(
          cell.runId(), seed, "bad scenario: " + e.getMessage(), millis(start));
    } catch (PluginException e) {
      return CellResult.failed(cell.runId(), seed, "plugins: " + e.getMessage(), millis(start));
    } catch (SimulationException e) {
      return CellResult.failed(cell.runId(), seed, "run failed: " + e.getMessage(), millis(start));
    } catch (IllegalArgumentException e) {
      return CellResult.failed(
          cell.runId(), seed, "bad scenario: " + e.getMessage(), millis(start));
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
