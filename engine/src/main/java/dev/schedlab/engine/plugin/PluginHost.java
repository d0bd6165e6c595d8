package dev.schedlab.engine.plugin;

import dev.schedlab.engine.scenario.PluginRef;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads plugins (PF4J) and built-in providers (ServiceLoader) and resolves the {@link Extensions}
 * of one run. A plugin that fails to load is reported in {@link #plugins()} and the rest load.
 */
public final class PluginHost implements AutoCloseable {
  /** Opens the host on {@code pluginsDir} (may be null or missing: built-ins only). Never throws for a bad plugin. */
  public static PluginHost open(Path pluginsDir) {
    throw new UnsupportedOperationException("TODO");
  }

  /** Every plugin found, loaded or not, with the reason when not. */
  public List<PluginStatus> plugins() {
    throw new UnsupportedOperationException("TODO");
  }

  /** Resolves the extensions for {@code enabled}; unknown ids, failed plugins and conflicts are errors. */
  public Extensions extensionsFor(List<PluginRef> enabled) throws PluginException {
    throw new UnsupportedOperationException("TODO");
  }

  @Override
  public void close() {}
}
