package dev.schedlab.engine.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A plugin to enable, with its options.
 *
 * @param id plugin id
 * @param options option values by key, sorted (iteration order is part of determinism)
 */
public record PluginRef(String id, Map<String, String> options) {
  public PluginRef {
    options = Collections.unmodifiableMap(new TreeMap<>(options));
  }

  /**
   * Parses an option line {@code ID[:key=value;key=value]} (as JMH's {@code -prof}), the form of
   * {@code run --plugin} and of a matrix's plugins axis.
   *
   * @throws IllegalArgumentException naming what was expected and the line
   */
  public static PluginRef parse(String line) {
    int colon = line.indexOf(':');
    String id = (colon < 0 ? line : line.substring(0, colon)).trim();
    if (!id.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException(
          "plugin id must be kebab-case (like sm-idle), got '" + id + "' in '" + line + "'");
    }
    Map<String, String> options = new LinkedHashMap<>();
    if (colon >= 0) {
      for (String kv : line.substring(colon + 1).split(";", -1)) {
        if (kv.isBlank()) {
          continue;
        }
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException(
              "expected key=value in plugin options, got '" + kv + "' in '" + line + "'");
        }
        options.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
      }
    }
    return new PluginRef(id, options);
  }
}
