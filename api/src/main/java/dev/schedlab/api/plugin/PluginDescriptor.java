package dev.schedlab.api.plugin;

import java.util.Set;

/**
 * What a plugin is and what it touches.
 *
 * @param id kebab-case id, equal to the PF4J plugin id (for example {@code sm-idle})
 * @param version plugin version
 * @param models the kernel commit or lore message id the plugin reproduces
 * @param hooks the hook points the plugin uses
 * @param conflicts ids of plugins it cannot be loaded with
 * @param requiresApi the API version range it was built for, for example {@code >=1.0.0 & <2.0.0}
 */
public record PluginDescriptor(
    String id,
    String version,
    String models,
    Set<HookPoint> hooks,
    Set<String> conflicts,
    String requiresApi) {
  /** Validates and copies the sets. */
  public PluginDescriptor {
    if (id == null || !id.matches("[a-z0-9]+(-[a-z0-9]+)*")) {
      throw new IllegalArgumentException("plugin id must be kebab-case, got: " + id);
    }
    hooks = Set.copyOf(hooks);
    conflicts = Set.copyOf(conflicts);
  }
}
