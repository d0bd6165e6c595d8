package dev.schedlab.lab.run;

import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.lab.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line's {@code --plugin ID[:key=value;key=value]} lines (the JMH {@code -prof} option
 * line), and how they change a scenario's plugin list.
 */
public final class PluginLines {
  private PluginLines() {}

  /**
   * {@code line} if it parses.
   *
   * @throws IllegalArgumentException it does not, with the reason
   */
  public static String check(String line) {
    PluginRef.parse(line);
    return line;
  }

  /** {@code s} with exactly the plugins of {@code lines}, in order. */
  public static Scenario replace(Scenario s, List<String> lines) {
    return s.withPlugins(parse(lines));
  }

  /**
   * {@code s} with the plugins of {@code lines} applied in order: a new id is appended, a known id
   * keeps its place and gets the line's options over its own.
   */
  public static Scenario merge(Scenario s, List<String> lines) {
    return s.withPlugins(merge(s.plugins(), parse(lines)));
  }

  /** The ids of {@code lines} joined by "+" (a label for runs with these plugins). */
  public static String label(List<String> lines) {
    return String.join("+", parse(lines).stream().map(PluginRef::id).toList());
  }

  static List<PluginRef> parse(List<String> lines) {
    return lines.stream().map(PluginRef::parse).toList();
  }

  static List<PluginRef> merge(List<PluginRef> scenario, List<PluginRef> extra) {
    Map<String, Map<String, String>> byId = new LinkedHashMap<>();
    for (PluginRef p : scenario) {
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    for (PluginRef p : extra) {
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    List<PluginRef> out = new ArrayList<>();
    byId.forEach((id, opts) -> out.add(new PluginRef(id, opts)));
    return out;
  }
}
