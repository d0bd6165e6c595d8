package dev.schedlab.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/**
 * The {@code --plugins-dir} option. Resolution order: the option, else environment variable {@code
 * SCHEDLAB_PLUGINS_DIR}, else system property {@code schedlab.plugins.dir} (set by the {@code
 * ./schedlab} launcher), else none (built-ins only).
 */
final class PluginsDir {
  static final String ENV = "SCHEDLAB_PLUGINS_DIR";
  static final String PROPERTY = "schedlab.plugins.dir";

  @Option(
      names = "--plugins-dir",
      paramLabel = "DIR",
      description =
          "Directory of plugin zips. Default: $"
              + ENV
              + ", else -D"
              + PROPERTY
              + ", else none (built-ins only).")
  @Nullable Path dir;

  /** Where plugins come from (AppModule's choice). */
  @com.google.inject.Inject PluginSource source;

  @Nullable Path resolve() {
    return source.directory(dir);
  }

  static @Nullable Path resolve(@Nullable Path option, Map<String, String> env, Properties props) {
    if (option != null) {
      return option;
    }
    String e = env.get(ENV);
    if (e != null && !e.isBlank()) {
      return Path.of(e);
    }
    String p = props.getProperty(PROPERTY);
    return p == null || p.isBlank() ? null : Path.of(p);
  }
}
