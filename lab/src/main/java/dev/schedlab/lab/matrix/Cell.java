package dev.schedlab.lab.matrix;

import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * One run of a matrix.
 *
 * @param index position in the matrix (0-based; the product is ordered workload, machine, params,
 *     plugins, seed, the last varying fastest)
 * @param runId stable id of the cell's inputs, see {@link RunId}
 * @param workload scenario file or tool line
 * @param machine machine preset that replaces the scenario's, or null to keep it
 * @param params parameter overrides
 * @param plugins the plugins to enable (they replace the scenario's list), or null to keep it
 * @param seed the seed, or null to keep the scenario's
 * @param globalSets the matrix's overrides for every cell, applied first
 */
public record Cell(
    int index,
    String runId,
    Workload workload,
    @Nullable String machine,
    ParamSet params,
    @Nullable List<PluginRef> plugins,
    @Nullable Long seed,
    List<String> globalSets) {
  public Cell {
    plugins = plugins == null ? null : List.copyOf(plugins);
    globalSets = List.copyOf(globalSets);
  }

  /** The overrides, in the order applied: the matrix's, the machine preset, the params. */
  public List<String> overrides() {
    List<String> out = new ArrayList<>(globalSets);
    if (machine != null) {
      out.add("machine.preset=" + machine);
    }
    out.addAll(params.sets());
    return out;
  }

  /** Loads and validates the scenario this cell runs. */
  public Scenario scenario() throws ScenarioException {
    Scenario s = workload.load(overrides());
    if (seed != null) {
      s = s.withSeed(seed);
    }
    return plugins == null ? s : s.withPlugins(plugins);
  }

  /** The machine column: the preset, or {@code scenario}. */
  public String machineLabel() {
    return machine == null ? "scenario" : machine;
  }

  /**
   * The plugins column: ids with options joined by {@code +}, {@code none}, or {@code scenario}.
   */
  public String pluginsLabel() {
    return pluginsLabel(plugins);
  }

  static String pluginsLabel(@Nullable List<PluginRef> refs) {
    if (refs == null) {
      return "scenario";
    }
    if (refs.isEmpty()) {
      return "none";
    }
    return refs.stream().map(Cell::optionLine).collect(Collectors.joining("+"));
  }

  static String optionLine(PluginRef r) {
    if (r.options().isEmpty()) {
      return r.id();
    }
    return r.id()
        + ":"
        + r.options().entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(";"));
  }

  /** The seed column: the seed, or {@code scenario}. */
  public String seedLabel() {
    return seed == null ? "scenario" : seed.toString();
  }

  /** A one-line description: workload, machine, params, plugins, seed. */
  public String describe() {
    return workload.label()
        + " "
        + machineLabel()
        + " ["
        + params.label()
        + "] "
        + pluginsLabel()
        + " seed "
        + seedLabel();
  }
}
