package dev.schedlab.engine.plugin;

import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.plugin.testplugins.ConfigurablePlugin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Builds a plugin in the layout of the plugins parent pom's assembly ({@code plugin.properties},
 * {@code classes/} with {@code META-INF/extensions.idx}) from {@link ConfigurablePlugin}'s compiled
 * classes, as a zip or an exploded directory.
 */
final class PluginZip {
  private final String id;
  private final Properties pluginProps = new Properties();
  private final Properties testProps = new Properties();
  private boolean index = true;
  private boolean pluginProperties = true;
  private boolean bundleApi;

  private PluginZip(String id) {
    this.id = id;
    pluginProps.setProperty("plugin.id", id);
    pluginProps.setProperty("plugin.version", "1.0.0");
    pluginProps.setProperty("plugin.requires", ">=1.0.0 & <2.0.0");
    testProps.setProperty("id", id);
  }

  static PluginZip plugin(String id) {
    return new PluginZip(id);
  }

  PluginZip requires(String range) {
    pluginProps.setProperty("plugin.requires", range);
    return this;
  }

  /** Sets {@code plugin.version} in plugin.properties (the descriptor says 1.0.0). */
  PluginZip version(String version) {
    pluginProps.setProperty("plugin.version", version);
    return this;
  }

  /** A {@link ConfigurablePlugin} setting. */
  PluginZip with(String key, String value) {
    testProps.setProperty(key, value);
    return this;
  }

  PluginZip withoutIndex() {
    index = false;
    return this;
  }

  PluginZip withoutPluginProperties() {
    pluginProperties = false;
    return this;
  }

  /** Also packs a copy of the API's plugin types, as a careless plugin build would. */
  PluginZip bundlingApi() {
    bundleApi = true;
    return this;
  }

  Path zipInto(Path dir) {
    Path zip = dir.resolve(id + ".zip");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
      for (Map.Entry<String, byte[]> e : entries().entrySet()) {
        out.putNextEntry(new ZipEntry(e.getKey()));
        out.write(e.getValue());
        out.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return zip;
  }

  Path explodeInto(Path dir) {
    Path root = dir.resolve(id);
    try {
      for (Map.Entry<String, byte[]> e : entries().entrySet()) {
        Path f = root.resolve(e.getKey());
        Files.createDirectories(f.getParent());
        Files.write(f, e.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return root;
  }

  private Map<String, byte[]> entries() throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    if (pluginProperties) {
      m.put("plugin.properties", bytes(pluginProps));
    }
    m.put("classes/" + ConfigurablePlugin.CONFIG, bytes(testProps));
    if (index) {
      m.put("classes/META-INF/extensions.idx",
          (ConfigurablePlugin.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    String pkg = ConfigurablePlugin.class.getPackageName().replace('.', '/');
    Path pkgDir = testClassesRoot().resolve(pkg);
    try (Stream<Path> s = Files.list(pkgDir)) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.startsWith("ConfigurablePlugin.") || name.startsWith("ConfigurablePlugin$")) {
          m.put("classes/" + pkg + "/" + name, Files.readAllBytes(p));
        }
      }
    }
    if (bundleApi) {
      for (Class<?> c : new Class<?>[] {SchedlabPlugin.class, PluginDescriptor.class,
          Contributions.class, PluginOptions.class, HookPoint.class}) {
        String path = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(path)) {
          m.put("classes/" + path, in.readAllBytes());
        }
      }
    }
    return m;
  }

  private static Path testClassesRoot() {
    try {
      return Path.of(
          ConfigurablePlugin.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(Properties p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    p.store((OutputStream) out, null);
    return out.toByteArray();
  }
}
