package dev.schedlab.engine.scenario;

import java.util.Map;

/**
 * A plugin to enable, with its options.
 *
 * @param id plugin id
 * @param options option values by key
 */
public record PluginRef(String id, Map<String, String> options) {
  public PluginRef {
    options = Map.copyOf(options);
  }
}
