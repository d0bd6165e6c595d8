package dev.schedlab.api.plugin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.security.CodeSource;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's packaging metadata as its build declares it, once: the pom properties {@code
 * plugin.id}, {@code plugin.version} and {@code plugin.requires}. {@code schedlab-plugin-parent}
 * writes them into {@code plugin.properties} at the root of the plugin zip (what PF4J reads and
 * enforces) and into the resource {@value #RESOURCE} beside the plugin's classes (what {@link #of}
 * reads), so a descriptor built with {@link #descriptor} states exactly what the host enforces. The
 * host refuses a plugin whose descriptor disagrees with its {@code plugin.properties}.
 *
 * <pre>{@code
 * private static final PluginMetadata BUILD = PluginMetadata.of(MyPlugin.class);
 *
 * public PluginDescriptor descriptor() {
 *   return BUILD.descriptor("lore <message-id>", Set.of(HookPoint.H1_PICK_OVERRIDE), Set.of());
 * }
 * }</pre>
 *
 * @param id kebab-case plugin id ({@code plugin.id})
 * @param version plugin version ({@code plugin.version})
 * @param requires the API range it runs on ({@code plugin.requires}), e.g. {@code >=1.2.0 & <2.0.0}
 * @since API 1.2.0
 */
public record PluginMetadata(String id, String version, String requires) {
  /** Where the build puts the metadata among the plugin's classes. */
  public static final String RESOURCE = "META-INF/schedlab/plugin.properties";

  /**
   * The metadata in the class-path entry (directory or jar) that holds {@code pluginClass}, so that
   * several plugins on one class path (tests) each read their own.
   *
   * @throws IllegalStateException when the resource or one of its keys is missing
   */
  public static PluginMetadata of(Class<?> pluginClass) {
    URL url = find(pluginClass);
    if (url == null) {
      throw new IllegalStateException(
          pluginClass.getName()
              + ": no "
              + RESOURCE
              + " beside its"
              + " classes; build the plugin with schedlab-plugin-parent, which writes it from the"
              + " pom properties plugin.id, plugin.version and plugin.requires");
    }
    Properties p = new Properties();
    try (InputStream in = url.openStream()) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + url, e);
    }
    return new PluginMetadata(
        key(p, "plugin.id", url), key(p, "plugin.version", url), key(p, "plugin.requires", url));
  }

  /** The descriptor of a plugin with this metadata and the given behaviour. */
  public PluginDescriptor descriptor(String models, Set<HookPoint> hooks, Set<String> conflicts) {
    return new PluginDescriptor(id, version, models, hooks, conflicts, requires);
  }

  private static @Nullable URL find(Class<?> c) {
    ClassLoader loader =
        c.getClassLoader() != null ? c.getClassLoader() : ClassLoader.getSystemClassLoader();
    CodeSource source = c.getProtectionDomain().getCodeSource();
    if (source == null || source.getLocation() == null) {
      return loader.getResource(RESOURCE);
    }
    String root = source.getLocation().toExternalForm();
    try {
      for (URL u : Collections.list(loader.getResources(RESOURCE))) {
        String s = u.toExternalForm();
        if (s.equals(root + RESOURCE) || s.equals("jar:" + root + "!/" + RESOURCE)) {
          return u;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot look up " + RESOURCE, e);
    }
    return null;
  }

  private static String key(Properties p, String key, URL url) {
    String v = p.getProperty(key, "").trim();
    if (v.isEmpty() || v.startsWith("${")) {
      throw new IllegalStateException(url + ": " + key + " is missing or unfiltered ('" + v + "')");
    }
    return v;
  }
}
