package dev.schedlab.engine.plugin;

/** A plugin threw inside a hook; the engine adds the simulated time and stops the run. */
public final class PluginFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final String pluginId;
  private final String hook;

  /** Failure of {@code pluginId} in {@code hook}. */
  public PluginFailure(String pluginId, String hook, Throwable cause) {
    super("plugin " + pluginId + " failed in hook " + hook + ": " + cause, cause);
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
