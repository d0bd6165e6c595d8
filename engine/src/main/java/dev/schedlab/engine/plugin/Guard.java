package dev.schedlab.engine.plugin;

/**
 * Turns what a plugin's code threw into a {@link PluginFailure} naming the plugin and the callback.
 * JVM failures ({@link VirtualMachineError}) pass unchanged, and so does a {@link PluginFailure}
 * already raised by another plugin's guarded code that this plugin called through the services.
 */
final class Guard {
  private Guard() {}

  static RuntimeException failure(String pluginId, String what, Throwable thrown) {
    if (thrown instanceof VirtualMachineError vme) {
      throw vme;
    }
    if (thrown instanceof PluginFailure already) {
      return already;
    }
    return new PluginFailure(pluginId, what, thrown);
  }
}
