package dev.schedlab.engine.plugin;

import dev.schedlab.api.plugin.PluginDescriptor;

/**
 * A plugin that loaded and passed the API-range and conflict checks.
 *
 * @param descriptor its descriptor
 * @param source where it was loaded from (zip path, directory, or "builtin")
 */
public record LoadedPlugin(PluginDescriptor descriptor, String source) {}
