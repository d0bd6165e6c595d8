package dev.schedlab.engine.plugin;

import org.jspecify.annotations.Nullable;

/**
 * A plugin threw inside a hook or broke an invariant at the plugin boundary, and the run stops
 * ({@code --on-plugin-error fail}); the engine adds the simulated time.
 */
public final class PluginFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String pluginId;
  private final String hook;

  /** Failure of {@code pluginId} in {@code hook}: it threw {@code cause}. */
  public PluginFailure(String pluginId, String hook, Throwable cause) {
    this(pluginId, hook, String.valueOf(cause), cause);
  }

  /** Failure of {@code pluginId} in {@code hook} for {@code reason} ({@code cause} may be null). */
  public PluginFailure(String pluginId, String hook, String reason, @Nullable Throwable cause) {
    super("plugin " + pluginId + " failed in hook " + hook + ": " + reason, cause);
    this.pluginId = pluginId;
    this.hook = hook;
  }

  /** The plugin's id. */
  public String pluginId() {
    return pluginId;
  }

  /** The hook point or callback name. */
  public String hook() {
    return hook;
  }
}
