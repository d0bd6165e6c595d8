package dev.schedlab.engine.scenario;

import java.util.Collections;
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
}
