/**
 * The plugin host: PF4J loading of plugin zips ({@link dev.schedlab.engine.plugin.PluginHost}),
 * ServiceLoader discovery of built-ins, the contribution rules (conflicts, exclusive hooks, honest
 * descriptors, known option keys) and the guards that name a plugin when its code throws.
 */
package dev.schedlab.engine.plugin;
