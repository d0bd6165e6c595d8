package dev.schedlab.host;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.lab.workload.Reports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs the model's twin of a host measurement: a scenario on a machine file, built-ins only. */
public final class ModelRunner {
  /** A finished run: the result and the tool reports by tool id. */
  public record Outcome(Scenario scenario, RunResult result, Map<String, Object> reports) {
    /** A number of tool {@code id}'s report, by its path of keys. */
    public double report(String id, String... path) throws HostException {
      Object node = reports.get(id);
      node = node instanceof Map<?, ?> m ? m.get("report") : null;
      for (String key : path) {
        node = node instanceof Map<?, ?> m ? m.get(key) : null;
      }
      if (!(node instanceof Number n)) {
        throw new HostException(
            "the model's " + id + " report has no number at " + String.join(".", path));
      }
      return n.doubleValue();
    }

    /** A counter of the run's metrics (0 when absent). */
    public double metric(String name) {
      Object v = result.metrics().get(name);
      return v instanceof Number n ? n.doubleValue() : 0;
    }
  }

  private final Path machineFile;

  /** A runner on {@code machineFile}'s text, written to a temporary file for the loader. */
  public static ModelRunner on(String machineFileText) throws HostException {
    try {
      Path f = Files.createTempFile("schedlab-machine", ".yaml");
      f.toFile().deleteOnExit();
      Files.writeString(f, machineFileText, StandardCharsets.UTF_8);
      return new ModelRunner(f);
    } catch (IOException e) {
      throw new HostException("cannot write a temporary machine file: " + e.getMessage(), e);
    }
  }

  public ModelRunner(Path machineFile) {
    this.machineFile = machineFile;
  }

  public Path machineFile() {
    return machineFile;
  }

  /**
   * Runs {@code tools} (tool, args and optionally the tool's {@code params} as a YAML flow map's
   * entries, in order; none: an idle machine) for {@code durationNs} with the kernel parameter
   * overrides {@code params} ({@code key=value}).
   */
  public Outcome run(
      String name, List<String[]> tools, long durationNs, long seed, List<String> params)
      throws HostException {
    return run(name, tools, durationNs, seed, params, TraceSink.NONE);
  }

  /** {@link #run(String, List, long, long, List)} with its trace events sent to {@code trace}. */
  public Outcome run(
      String name,
      List<String[]> tools,
      long durationNs,
      long seed,
      List<String> params,
      TraceSink trace)
      throws HostException {
    StringBuilder y = new StringBuilder();
    y.append("name: ").append(name).append('\n');
    y.append("seed: ").append(seed).append('\n');
    y.append("duration: ").append(durationNs).append('\n');
    y.append(tools.isEmpty() ? "workload:\n  tasks: []\n" : "workload:\n  tools:\n");
    for (String[] t : tools) {
      y.append("    - ").append(t[0]).append(": ");
      if (t.length > 2) {
        y.append("{args: \"").append(t[1]).append("\", params: {").append(t[2]).append("}}\n");
      } else {
        y.append('"').append(t[1]).append("\"\n");
      }
    }
    List<String> sets = params.stream().map(p -> "kernel.params." + p).toList();
    try {
      return run(
          ScenarioLoader.parse(name, y.toString(), true, name, Path.of(""), machineFile, sets),
          trace);
    } catch (ScenarioException e) {
      throw new HostException("the model's " + name + " did not load: " + e.getMessage(), e);
    }
  }

  /** Runs the scenario (or rt-app) file {@code file} on the machine file, {@code sets} last. */
  public Outcome runFile(Path file, List<String> sets) throws HostException {
    try {
      return run(ScenarioLoader.load(file, machineFile, sets), TraceSink.NONE);
    } catch (ScenarioException e) {
      throw new HostException("the model could not load " + file + ": " + e.getMessage(), e);
    }
  }

  private static Outcome run(Scenario s, TraceSink trace) throws HostException {
    try (PluginHost host = PluginHost.builtinOnly()) {
      RunResult r = Simulation.run(s.config(), host.extensionsFor(List.of()), trace);
      return new Outcome(s, r, Reports.json(s.workload().tools(), r));
    } catch (PluginException | SimulationException e) {
      throw new HostException("the model's " + s.name() + " did not run: " + e.getMessage(), e);
    }
  }
}
