package dev.schedlab.api.plugin;

import org.pf4j.ExtensionPoint;

/**
 * The extension every schedlab plugin provides (annotate the implementation with PF4J's
 * {@code @Extension}). The host reads the {@link #descriptor()}, checks API range and conflicts,
 * then calls {@link #contribute} once per run with the plugin's options.
 */
public interface SchedlabPlugin extends ExtensionPoint {
  /** What the plugin is and which hook points it uses. */
  PluginDescriptor descriptor();

  /** Option keys the plugin understands (unknown keys are rejected before {@link #contribute}). */
  default java.util.Set<String> optionKeys() {
    return java.util.Set.of();
  }

  /** Registers the plugin's hooks, classes, models and policies for one run. */
  void contribute(Contributions contributions, PluginOptions options);
}
