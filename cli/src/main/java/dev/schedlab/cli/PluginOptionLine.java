package dev.schedlab.cli;

import dev.schedlab.engine.scenario.PluginRef;
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
    int colon = line.indexOf(':');
    String id = (colon < 0 ? line : line.substring(0, colon)).trim();
    if (!id.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
      throw new CommandLine.TypeConversionException(
          "plugin id must be kebab-case (like sm-idle), got '" + id + "' in '" + line + "'");
    }
    Map<String, String> options = new LinkedHashMap<>();
    if (colon >= 0) {
      for (String kv : line.substring(colon + 1).split(";")) {
        if (kv.isBlank()) {
          continue;
        }
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new CommandLine.TypeConversionException(
              "expected key=value in plugin options, got '" + kv + "' in '" + line + "'");
        }
        options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
      }
    }
    return new PluginRef(id, options);
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
