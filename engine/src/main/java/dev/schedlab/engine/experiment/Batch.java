package dev.schedlab.engine.experiment;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.scenario.PluginRef;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.ScenarioException;
import dev.schedlab.engine.scenario.ScenarioLoader;
import dev.schedlab.engine.workload.Reports;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one scenario under several configurations over the same seeds (seed s, s+1, ...: common
 * random numbers, since every task's stream is split from the seed in creation order).
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
   * @param values numeric results: {@code metric.PATH} (metrics) and {@code report.ID.PATH} (tool reports)
   * @param simNs simulated time
   */
  public record Run(String config, long seed, String digest, Map<String, Double> values, long simNs) {}

  /** Told about every finished run (progress display). */
  public interface Progress {
    /** {@code finished} of {@code total} runs are done; the last was {@code run}. */
    void done(int finished, int total, Run run);

    /** No progress display. */
    Progress NONE = (f, t, r) -> { };
  }

  private Batch() {}

  /**
   * Runs {@code scenario} (with {@code sets} applied first) under each configuration, seeds
   * {@code firstSeed .. firstSeed + seeds - 1}; results grouped by configuration, in order.
   */
  public static Map<String, List<Run>> run(Path scenario, List<String> sets,
      List<Configuration> configs, long firstSeed, int seeds, Path pluginsDir, Progress progress)
      throws ScenarioException, PluginException, SimulationException {
    return run(scenario, null, sets, configs, firstSeed, seeds, pluginsDir, progress);
  }

  /** As {@link #run(Path, List, List, long, int, Path, Progress)} on machine file {@code machine}. */
  public static Map<String, List<Run>> run(Path scenario, Path machine, List<String> sets,
      List<Configuration> configs, long firstSeed, int seeds, Path pluginsDir, Progress progress)
      throws ScenarioException, PluginException, SimulationException {
    Map<String, List<Run>> out = new LinkedHashMap<>();
    int total = configs.size() * seeds;
    int done = 0;
    try (PluginHost host = PluginHost.open(pluginsDir)) {
      for (Configuration c : configs) {
        if (out.containsKey(c.name())) {
          throw new IllegalArgumentException("two configurations are named " + c.name());
        }
        Path file = c.scenario() == null ? scenario : resolve(scenario, c.scenario());
        List<String> all = new ArrayList<>(sets);
        all.addAll(c.sets());
        Scenario base = ScenarioLoader.load(file, machine, all);
        base = base.withPlugins(merge(base.plugins(), c.plugins()));
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < seeds; i++) {
          Scenario s = base.withSeed(firstSeed + i);
          // Fresh extensions per run: scheduling classes and policies keep per-run state. A
          // misbehaving plugin fails the comparison: an ejection would mix mainline into its figures.
          RunResult r = Simulation.run(s, host.extensionsFor(s.plugins()), TraceSink.NONE, FAIL);
          Map<String, Double> values = new LinkedHashMap<>(Flat.numbers("metric", r.metrics()));
          Map<String, Object> reports = new LinkedHashMap<>();
          Reports.json(s, r).forEach((id, v) -> reports.put(id, ((Map<?, ?>) v).get("report")));
          values.putAll(Flat.numbers("report", reports));
          Run run = new Run(c.name(), s.seed(), r.digest(), values, r.simNs());
          runs.add(run);
          progress.done(++done, total, run);
        }
        out.put(c.name(), runs);
      }
    }
    return out;
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
