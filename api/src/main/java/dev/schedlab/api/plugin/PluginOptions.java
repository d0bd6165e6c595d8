package dev.schedlab.api.plugin;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A plugin's options, parsed from an option line {@code id:key=value;key=value} or a scenario's
 * {@code plugins} entry. Getters take the default; {@link #checkOnly} rejects unknown keys.
 */
public final class PluginOptions {
  private final String pluginId;
  private final Map<String, String> values;

  /** Options {@code values} for plugin {@code pluginId}. */
  public PluginOptions(String pluginId, Map<String, String> values) {
    this.pluginId = pluginId;
    this.values = new TreeMap<>(values);
  }

  /** No options. */
  public static PluginOptions none(String pluginId) {
    return new PluginOptions(pluginId, Map.of());
  }

  /** The raw values, sorted by key. */
  public Map<String, String> asMap() {
    return Map.copyOf(values);
  }

  /** Throws if a key outside {@code known} was given. */
  public void checkOnly(Set<String> known) {
    for (String k : values.keySet()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException(
            "plugin "
                + pluginId
                + ": unknown option '"
                + k
                + "', expected one of "
                + new TreeSet<>(known));
      }
    }
  }

  /** A boolean option. */
  public boolean getBoolean(String key, boolean def) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new IllegalArgumentException(
          "plugin " + pluginId + ": option '" + key + "' expects true or false, got '" + v + "'");
    }
    return Boolean.parseBoolean(v);
  }

  /** A duration option in ns; accepts suffixes ns, us, ms, s. */
  public long getDurationNs(String key, long def) {
    String v = values.get(key);
    return v == null ? def : Durations.parseNs(v, "plugin " + pluginId + " option '" + key + "'");
  }

  /** A whole-number option. */
  public long getLong(String key, long def) {
    String v = values.get(key);
    if (v == null) {
      return def;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "plugin " + pluginId + ": option '" + key + "' expects a whole number, got '" + v + "'");
    }
  }

  /** A string option. */
  public String getString(String key, String def) {
    return values.getOrDefault(key, def);
  }
}
