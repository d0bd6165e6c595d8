package dev.schedlab.cli;

import com.google.inject.Inject;
import dev.schedlab.cluster.ClusterException;
import dev.schedlab.cluster.ClusterSettings;
import dev.schedlab.cluster.Endpoint;
import dev.schedlab.cluster.MatrixId;
import dev.schedlab.cluster.Secret;
import dev.schedlab.lab.matrix.Cell;
import dev.schedlab.lab.matrix.CellExecutor;
import dev.schedlab.lab.matrix.CellLog;
import dev.schedlab.lab.matrix.CellResult;
import dev.schedlab.lab.matrix.MatrixFile;
import dev.schedlab.lab.matrix.MatrixPlan;
import dev.schedlab.lab.matrix.MatrixRunner;
import dev.schedlab.lab.matrix.MatrixSpec;
import dev.schedlab.lab.matrix.MatrixSummary;
import dev.schedlab.lab.matrix.Shard;
import dev.schedlab.lab.run.FoundPlugin;
import dev.schedlab.lab.run.Plugins;
import dev.schedlab.report.MatrixView;
import dev.schedlab.report.section.MatrixSection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code schedlab matrix}: many runs over axes, resumable, in parallel; see docs/matrix.md. */
@Command(
    name = "matrix",
    mixinStandardHelpOptions = true,
    description = {
      "Run every cell of a matrix file (workloads x machines x params x plugin sets x"
          + " seeds, or an explicit list of cells; see docs/matrix.md) in parallel, appending each"
          + " finished cell to OUT/cells.jsonl. Run the same command again to resume: cells already"
          + " in cells.jsonl are not run again. Writes OUT/summary.csv and OUT/summary.json and prints"
          + " the summary table."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every cell ran to completion",
      "1:internal error",
      "2:bad input: matrix file, unknown or disallowed plugin set, invalid arguments",
      "10+N:N cells failed (N capped at 100: 11..110); their errors are in the table and in cells.jsonl"
    })
final class MatrixCommand implements Callable<Integer> {
  /** Exit code base: {@code FAILED_BASE + min(failed, 100)} when cells failed. */
  static final int FAILED_BASE = 10;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "MATRIX",
      description = "Matrix file (.yaml); see docs/matrix.md.")
  Path file;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: the file's out:, else matrix-out/NAME).")
  @Nullable Path out;

  @Option(
      names = {"-j", "--jobs"},
      paramLabel = "N",
      description =
          "Cells run at once in this process (default: the number of available"
              + " processors; with --cluster, 0 runs none here).")
  @Nullable Integer jobs;

  @Option(
      names = "--cluster",
      description =
          "Coordinate a cluster: workers started with `schedlab"
              + " worker --join ADDRESS --matrix ID` run cells too (see docs/matrix.md). Needs a shared"
              + " secret: --secret-file or $"
              + Secret.ENV
              + ".")
  boolean cluster;

  @Option(
      names = "--bind",
      paramLabel = "HOST[:PORT]",
      description =
          "With --cluster: the interface and port to listen on, and only there"
              + " (default: 127.0.0.1:"
              + Endpoint.DEFAULT_PORT
              + "; give the address on the cluster's"
              + " private network for workers on other machines).")
  @Nullable String bind;

  @Option(
      names = "--secret-file",
      paramLabel = "FILE",
      description =
          "With --cluster: the file holding the cluster's shared secret (default: $"
              + Secret.ENV
              + ").")
  @Nullable Path secretFile;

  @Option(
      names = "--shard",
      paramLabel = "i/N",
      description =
          "Run share i of N (cells whose index is i-1 modulo N); shares are disjoint and"
              + " cover the matrix.")
  @Nullable String shard;

  @Option(names = "--retry-failed", description = "Run again the cells recorded as failed.")
  boolean retryFailed;

  @Option(names = "--list", description = "Print the cells and their run ids, run nothing.")
  boolean list;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress on stderr.")
  boolean quiet;

  @Option(
      names = "--report",
      paramLabel = "FILE",
      description =
          "Also write a self-contained HTML report to FILE: a heatmap of the first summary"
              + " value over the two axes with the most levels, and the sortable table of every cell"
              + " (schedlab report OUT --value NAME --axes X,Y chooses others).")
  @Nullable Path report;

  @Mixin PluginsDir pluginsDir;

  @Inject MatrixModule.CellExecutors executors;

  @Inject InstantSource clock;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Shard share;
    try {
      share = shard == null ? Shard.ALL : Shard.parse(shard);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), "--shard: " + e.getMessage());
    }
    int threads = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
    if (threads < (cluster ? 0 : 1)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--jobs must be at least " + (cluster ? "0 with --cluster" : "1"));
    }
    if (!cluster && (bind != null || secretFile != null)) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--bind and --secret-file go with --cluster");
    }
    ClusterSettings clusterSettings = clusterSettings(err);
    MatrixSpec m = MatrixFile.load(file);
    Path dir = out != null ? out : m.out() != null ? m.out() : Path.of("matrix-out", m.name());
    try (Plugins host = Plugins.open(pluginsDir.resolve())) {
      for (FoundPlugin p : host.found()) {
        if (!p.loaded()) {
          err.println("schedlab: plugin " + p.id() + " not loaded: " + p.problem());
        }
      }
      List<Cell> all = MatrixPlan.cells(m, host.allowedCombinations());
      List<Cell> cells = share.of(all);
      if (list) {
        err.printf(
            Locale.ROOT,
            "matrix %s%s: id %s, %d cells%n",
            m.name(),
            share.equals(Shard.ALL) ? "" : " shard " + share,
            MatrixId.of(cells),
            cells.size());
        err.flush();
        for (Cell c : cells) {
          stdout.printf(Locale.ROOT, "%4d  %s  %s%n", c.index(), c.runId(), c.describe());
        }
        stdout.flush();
        return Main.OK;
      }
      try (CellLog log = CellLog.open(dir)) {
        var finished = log.finished();
        long done = cells.stream().filter(c -> finished.containsKey(c.runId())).count();
        if (!quiet) {
          err.printf(
              Locale.ROOT,
              "matrix %s%s: %d cells, %d already in %s, %d jobs%n",
              m.name(),
              share.equals(Shard.ALL) ? "" : " shard " + share,
              cells.size(),
              done,
              log.file(),
              threads);
          if (log.dropped() > 0) {
            err.println(
                "matrix "
                    + m.name()
                    + ": dropped "
                    + log.dropped()
                    + " unreadable line(s) of "
                    + log.file()
                    + " (a cut-short last line); those cells run again");
          }
        }
        Progress progress = new Progress(err, quiet, m.name(), clock);
        CellExecutor executor =
            executors.create(
                new MatrixModule.Options(
                    threads,
                    clusterSettings,
                    pluginsDir.resolve(),
                    s -> {
                      err.println("matrix " + m.name() + ": " + s);
                      err.flush();
                    }));
        MatrixRunner.Outcome o;
        try {
          o =
              MatrixRunner.run(
                  m.name(),
                  cells,
                  host,
                  log,
                  executor,
                  retryFailed,
                  (d, t, c, r) -> progress.step(d, t, "cells", line(d, t, c, r)));
        } catch (IOException e) {
          if (e.getCause() instanceof ClusterException c) {
            throw c;
          }
          throw e;
        }
        MatrixSummary summary = new MatrixSummary(m.name(), share, m.values(), o);
        summary.write(dir);
        if (report != null) {
          ReportFile.write(
              "--report", report, List.of(MatrixSection.read(dir, MatrixView.DEFAULT)));
        }
        stdout.print(summary.text());
        stdout.println(
            "wrote "
                + dir.resolve("summary.csv")
                + ", "
                + dir.resolve("summary.json")
                + " and "
                + log.file());
        stdout.flush();
        return exitCode(o.failed());
      }
    }
  }

  /** The cluster this process coordinates, or null without --cluster. */
  private @Nullable ClusterSettings clusterSettings(PrintWriter err) throws ClusterException {
    if (!cluster) {
      return null;
    }
    Endpoint at =
        bind == null
            ? new Endpoint("127.0.0.1", Endpoint.DEFAULT_PORT)
            : Endpoint.parse(bind, Endpoint.DEFAULT_PORT);
    ClusterSettings.checkBind(at);
    return new ClusterSettings(at, List.of(), ClusterArgs.secret(secretFile, err));
  }

  /** 0 when no cell failed, else {@value #FAILED_BASE} + min(failed, 100). */
  static int exitCode(int failed) {
    return failed == 0 ? Main.OK : FAILED_BASE + Math.min(failed, 100);
  }

  private static String line(int done, int total, Cell c, CellResult r) {
    String what =
        r.ok()
            ? String.format(
                Locale.ROOT,
                "digest %.16s, %.3f s simulated, %d ms",
                r.digest(),
                r.simNs() / 1e9,
                r.wallMs())
            : "FAILED: " + r.error();
    return String.format(
        Locale.ROOT,
        "cell %d/%d done: #%d %s %s (%s)",
        done,
        total,
        c.index(),
        c.runId(),
        c.describe(),
        what);
  }
}
