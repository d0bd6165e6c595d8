package dev.schedlab.lab.matrix;

import dev.schedlab.engine.Version;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Expands a {@link MatrixSpec} into its cells, checking plugin sets against what is allowed. */
public final class MatrixPlan {
  private MatrixPlan() {}

  /**
   * The cells of {@code spec}, in order, with the engine's version in their run ids.
   *
   * @param allowed the plugin combinations that may run (from {@code
   *     PluginHost.allowedCombinations()})
   * @throws ScenarioException when a plugin set is not allowed or two cells have the same inputs
   */
  public static List<Cell> cells(MatrixSpec spec, List<List<String>> allowed)
      throws ScenarioException {
    return cells(spec, allowed, Version.current());
  }

  static List<Cell> cells(MatrixSpec spec, List<List<String>> allowed, String version)
      throws ScenarioException {
    List<Cell> out = new ArrayList<>();
    Map<String, Cell> byId = new HashMap<>();
    Map<Workload, String> canonical = new HashMap<>();
    for (MatrixSpec.Axes a : spec.blocks()) {
      List<List<PluginRef>> pluginSets = pluginSets(a, allowed);
      for (Workload w : a.workloads()) {
        String content = canonical.get(w);
        if (content == null) {
          content = w.canonical();
          canonical.put(w, content);
        }
        for (String m : a.machines()) {
          for (ParamSet p : a.params()) {
            for (List<PluginRef> plugins : pluginSets) {
              for (Long seed : a.seeds()) {
                Cell proto = new Cell(out.size(), "", w, m, p, plugins, seed, spec.sets());
                String id = RunId.of(content, proto.overrides(), plugins, seed, version);
                Cell c = new Cell(out.size(), id, w, m, p, plugins, seed, spec.sets());
                Cell twin = byId.putIfAbsent(id, c);
                if (twin != null) {
                  throw new ScenarioException(
                      spec.file()
                          + ": cells "
                          + twin.index()
                          + " ("
                          + twin.describe()
                          + ") and "
                          + c.index()
                          + " ("
                          + c.describe()
                          + ") have the same inputs; list each combination once");
                }
                out.add(c);
              }
            }
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /** The axis's plugin sets, keywords expanded, duplicates dropped, each checked. */
  private static List<List<PluginRef>> pluginSets(MatrixSpec.Axes a, List<List<String>> allowed)
      throws ScenarioException {
    Map<String, List<PluginRef>> sets = new LinkedHashMap<>();
    for (PluginChoice c : a.plugins()) {
      if (c == null) {
        sets.putIfAbsent("scenario", null);
        continue;
      }
      for (List<PluginRef> refs : c.expand(allowed)) {
        check(c.where(), refs, allowed);
        sets.putIfAbsent(Cell.pluginsLabel(refs), refs);
      }
    }
    return new ArrayList<>(sets.values());
  }

  private static void check(String where, List<PluginRef> refs, List<List<String>> allowed)
      throws ScenarioException {
    List<String> ids = refs.stream().map(PluginRef::id).toList();
    if (new TreeSet<>(ids).size() != ids.size()) {
      throw new ScenarioException(where + ": plugin set " + ids + " names a plugin twice");
    }
    TreeSet<String> loaded = new TreeSet<>();
    allowed.forEach(loaded::addAll);
    for (String id : ids) {
      if (!loaded.contains(id)) {
        throw new ScenarioException(
            where
                + ": unknown plugin "
                + id
                + " in plugin set "
                + ids
                + "; loaded plugins: "
                + (loaded.isEmpty() ? "none (check --plugins-dir)" : loaded));
      }
    }
    if (!allowed.contains(new ArrayList<>(new TreeSet<>(ids)))) {
      throw new ScenarioException(
          where
              + ": plugin set "
              + ids
              + " is not allowed (a declared"
              + " conflict or an exclusive hook used twice); allowed combinations: "
              + allowed
              + " (schedlab plugins explains why)");
    }
  }
}
