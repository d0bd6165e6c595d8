package dev.schedlab.cli;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** Where a command's plugins come from: the plugins directory, or none (built-ins only). */
interface PluginSource {
  /**
   * The plugins directory for a command given {@code --plugins-dir option} (null when not given),
   * or null for built-ins only.
   */
  @Nullable Path directory(@Nullable Path option);

  /**
   * The option, else environment variable {@code SCHEDLAB_PLUGINS_DIR}, else system property {@code
   * schedlab.plugins.dir} (set by the {@code ./schedlab} launcher), else none.
   */
  PluginSource ENVIRONMENT =
      option -> PluginsDir.resolve(option, System.getenv(), System.getProperties());
}
