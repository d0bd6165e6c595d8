package dev.schedlab.cli;

import dev.schedlab.engine.config.PluginRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Parses {@code --plugin ID[:key=value;key=value]} (the JMH {@code -prof} option line) and merges
 * command-line plugins into a scenario's list.
 */
final class PluginOptionLine implements CommandLine.ITypeConverter<PluginRef> {
  @Override
  public PluginRef convert(String line) {
    return parse(line);
  }

  static PluginRef parse(String line) {
    try {
      return PluginRef.parse(line);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }

  /**
   * The scenario's plugins with {@code extra} applied in order: a new id is appended, a known id
   * keeps its place and gets the extra options over its own.
   */
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
