package dev.schedlab.lab.matrix;

import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.scenario.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One entry of the plugins axis: a keyword ({@code none}, {@code all}, {@code each}) or an explicit
 * set of plugins with options.
 *
 * @param keyword the keyword, or null for an explicit set
 * @param refs the explicit set (empty for a keyword)
 * @param where the entry's place in the matrix file ({@code FILE:LINE:COL: plugins[1]}), for errors
 */
record PluginChoice(@Nullable String keyword, List<PluginRef> refs, String where) {
  static final List<String> KEYWORDS = List.of("none", "all", "each");

  PluginChoice {
    refs = List.copyOf(refs);
  }

  /** An explicit set from option lines {@code ID[:key=value;key=value]}. */
  static PluginChoice explicit(List<String> lines, String where) throws ScenarioException {
    List<PluginRef> refs = new ArrayList<>();
    for (String line : lines) {
      refs.add(parse(line, where));
    }
    return new PluginChoice(null, refs, where);
  }

  /**
   * The plugin sets this entry stands for. {@code none}: the empty set; {@code all}: every
   * combination the host allows (the empty one first); {@code each}: every loaded plugin alone.
   */
  List<List<PluginRef>> expand(List<List<String>> allowed) {
    if (keyword == null) {
      return List.of(refs);
    }
    List<List<PluginRef>> out = new ArrayList<>();
    for (List<String> combo : allowed) {
      if (keyword.equals("all") || combo.size() == (keyword.equals("none") ? 0 : 1)) {
        out.add(combo.stream().map(id -> new PluginRef(id, Map.of())).toList());
      }
    }
    return out;
  }

  /** Parses the option line {@code ID[:key=value;key=value]} (as {@code run --plugin}). */
  static PluginRef parse(String line, String where) throws ScenarioException {
    try {
      return PluginRef.parse(line);
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(where + ": " + e.getMessage() + " (or one of " + KEYWORDS + ")");
    }
  }
}
