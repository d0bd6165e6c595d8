package dev.schedlab.lab.run;

import dev.schedlab.api.plugin.PluginDescriptor;
import org.jspecify.annotations.Nullable;

/**
 * A plugin found in the plugins directory, as {@code schedlab plugins} and {@code schedlab matrix}
 * report it.
 *
 * @param id the plugin id
 * @param version its version as PF4J read it ("" when unknown)
 * @param requires the API range it requires ("" when none)
 * @param source the zip or directory it came from
 * @param descriptor what it declares (null when it did not load far enough to say)
 * @param problem why it did not load (null when it did)
 */
public record FoundPlugin(
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
