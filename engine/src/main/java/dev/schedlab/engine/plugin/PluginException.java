package dev.schedlab.engine.plugin;

/** A bad plugin selection: unknown id, a plugin that failed to load, or a conflict. Exit code 2. */
public final class PluginException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error with {@code message}. */
  public PluginException(String message) {
    super(message);
  }
}
