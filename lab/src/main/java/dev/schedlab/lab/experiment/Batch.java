package dev.schedlab.lab.experiment;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.lab.workload.Reports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Runs one scenario under several configurations over the same seeds (seed s, s+1, ...: common
 * random numbers, since every task's stream is split from the seed in creation order). The runs are
 * independent, so they run in parallel ({@link Pool}); each run's result depends on its scenario
 * and seed alone and results come back in configuration and seed order, so the output is the same
 * whatever the number of threads.
 */
public final class Batch {
  private static final RunOptions FAIL =
      new RunOptions(dev.schedlab.engine.plugin.PluginSupervisor.OnError.FAIL, false, null);

  /**
   * One finished run.
   *
   * @param config configuration name
   * @param seed seed
   * @param digest event-stream digest
   * @param values numeric results: {@code metric.PATH} (metrics) and {@code report.ID.PATH} (tool
   *     reports)
   * @param simNs simulated time
   */
  public record Run(
      String config, long seed, String digest, Map<String, Double> values, long simNs) {}

  /** Told about every finished run (progress display). */
  public interface Progress {
    /** {@code finished} of {@code total} runs are done; the last was {@code run}. */
    void done(int finished, int total, Run run);

    /** No progress display. */
    Progress NONE = (f, t, r) -> {};
  }

  private Batch() {}

  /**
   * Runs {@code scenario} (with {@code sets} applied first) under each configuration, seeds {@code
   * firstSeed .. firstSeed + seeds - 1}; results grouped by configuration, in order.
   */
  public static Map<String, List<Run>> run(
      Path scenario,
      List<String> sets,
      List<Configuration> configs,
      long firstSeed,
      int seeds,
      @Nullable Path pluginsDir,
      Progress progress)
      throws ScenarioException, PluginException, SimulationException {
    return run(scenario, null, sets, configs, firstSeed, seeds, pluginsDir, progress);
  }

  /**
   * As {@link #run(Path, List, List, long, int, Path, Progress)} on machine file {@code machine}.
   */
  public static Map<String, List<Run>> run(
      Path scenario,
      @Nullable Path machine,
      List<String> sets,
      List<Configuration> configs,
      long firstSeed,
      int seeds,
      @Nullable Path pluginsDir,
      Progress progress)
      throws ScenarioException, PluginException, SimulationException {
    try (Pool pool = new Pool(Pool.allCores(), pluginsDir)) {
      Tally tally = new Tally(progress, configs.size() * seeds);
      return pool.submit(scenario, machine, sets, configs, firstSeed, seeds, tally).results();
    }
  }

  /** Counts finished runs of a group of batches (an experiment) for its progress display. */
  public static final class Tally {
    private final Progress progress;
    private final int total;
    private int finished;

    /** {@code total} runs reported to {@code progress} as they finish. */
    public Tally(Progress progress, int total) {
      this.progress = progress;
      this.total = total;
    }

    synchronized void done(Run run) {
      progress.done(++finished, total, run);
    }
  }

  /** Runs submitted batches on a fixed number of threads, sharing one plugin host. */
  public static final class Pool implements AutoCloseable {
    private final ExecutorService threads;
    private final PluginHost host;

    /** A pool of {@code jobs} threads with the plugins of {@code pluginsDir}. */
    public Pool(int jobs, @Nullable Path pluginsDir) throws PluginException {
      if (jobs < 1) {
        throw new IllegalArgumentException("jobs must be at least 1, got " + jobs);
      }
      this.host = PluginHost.open(pluginsDir);
      AtomicInteger n = new AtomicInteger();
      this.threads =
          Executors.newFixedThreadPool(
              jobs,
              r -> {
                Thread t = new Thread(r, "schedlab-run-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
              });
    }

    /** One thread per core of this machine. */
    public static int allCores() {
      return Runtime.getRuntime().availableProcessors();
    }

    /**
     * Loads {@code scenario} under each configuration (errors in the files are reported now) and
     * queues its runs, seeds {@code firstSeed .. firstSeed + seeds - 1}.
     */
    public Pending submit(
        Path scenario,
        @Nullable Path machine,
        List<String> sets,
        List<Configuration> configs,
        long firstSeed,
        int seeds,
        Tally tally)
        throws ScenarioException {
      Map<String, List<Future<Run>>> out = new LinkedHashMap<>();
      for (Configuration c : configs) {
        if (out.containsKey(c.name())) {
          throw new IllegalArgumentException("two configurations are named " + c.name());
        }
        Path file = c.scenario() == null ? scenario : resolve(scenario, c.scenario());
        List<String> all = new ArrayList<>(sets);
        all.addAll(c.sets());
        Scenario base = ScenarioLoader.load(file, machine, all);
        Scenario withPlugins = base.withPlugins(merge(base.plugins(), c.plugins()));
        List<Future<Run>> runs = new ArrayList<>();
        for (int i = 0; i < seeds; i++) {
          Scenario s = withPlugins.withSeed(firstSeed + i);
          runs.add(threads.submit(() -> runOne(c.name(), s, tally)));
        }
        out.put(c.name(), runs);
      }
      return new Pending(out);
    }

    private Run runOne(String config, Scenario s, Tally tally)
        throws PluginException, SimulationException {
      // Fresh extensions per run: scheduling classes and policies keep per-run state. A
      // misbehaving plugin fails the comparison: an ejection would mix mainline into its figures.
      RunResult r =
          Simulation.run(s.config(), host.extensionsFor(s.plugins()), TraceSink.NONE, FAIL);
      Map<String, Double> values = new LinkedHashMap<>(Flat.numbers("metric", r.metrics()));
      Map<String, Object> reports = new LinkedHashMap<>();
      Reports.json(s.workload().tools(), r)
          .forEach((id, v) -> reports.put(id, ((Map<?, ?>) v).get("report")));
      values.putAll(Flat.numbers("report", reports));
      Run run = new Run(config, s.seed(), r.digest(), values, r.simNs());
      tally.done(run);
      return run;
    }

    @Override
    public void close() {
      threads.shutdownNow();
      host.close();
    }
  }

  /** The queued runs of one batch. */
  public static final class Pending {
    private final Map<String, List<Future<Run>>> runs;

    private Pending(Map<String, List<Future<Run>>> runs) {
      this.runs = runs;
    }

    /** Waits for the runs; grouped by configuration, in order. */
    public Map<String, List<Run>> results() throws PluginException, SimulationException {
      Map<String, List<Run>> out = new LinkedHashMap<>();
      for (Map.Entry<String, List<Future<Run>>> e : runs.entrySet()) {
        List<Run> done = new ArrayList<>();
        for (Future<Run> f : e.getValue()) {
          done.add(get(f));
        }
        out.put(e.getKey(), done);
      }
      return out;
    }

    private static Run get(Future<Run> f) throws PluginException, SimulationException {
      try {
        return f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SimulationException("interrupted while waiting for a run", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof PluginException p) {
          throw p;
        }
        if (c instanceof SimulationException x) {
          throw x;
        }
        if (c instanceof RuntimeException r) {
          throw r;
        }
        if (c instanceof Error err) {
          throw err;
        }
        throw new IllegalStateException(c);
      }
    }
  }

  private static Path resolve(Path scenario, String other) {
    Path dir = scenario.toAbsolutePath().getParent();
    return dir == null ? Path.of(other) : dir.resolve(other);
  }

  /** The scenario's plugins with {@code extra} added (a listed id gets the extra options). */
  static List<PluginRef> merge(List<PluginRef> scenario, List<PluginRef> extra) {
    Map<String, Map<String, String>> byId = new LinkedHashMap<>();
    for (PluginRef p : scenario) {
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    for (PluginRef p : extra) {
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    List<PluginRef> out = new ArrayList<>();
    byId.forEach((id, o) -> out.add(new PluginRef(id, o)));
    return out;
  }
}
