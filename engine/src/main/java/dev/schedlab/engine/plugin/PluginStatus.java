package dev.schedlab.engine.plugin;

import dev.schedlab.api.plugin.PluginDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * A plugin the host found.
 *
 * @param id plugin id (or the file name when unreadable)
 * @param version plugin version ({@code plugin.version}, as PF4J read it), or "" when unknown
 * @param requires the API range PF4J enforces ({@code plugin.requires}), or "" when unknown
 * @param source zip or directory it came from
 * @param descriptor its descriptor, or null when it did not load
 * @param problem why it did not load, or null when it did
 */
public record PluginStatus(
    String id,
    String version,
    String requires,
    String source,
    @Nullable PluginDescriptor descriptor,
    @Nullable String problem) {
  /** Whether the plugin loaded. */
  public boolean loaded() {
    return problem == null;
  }
}
