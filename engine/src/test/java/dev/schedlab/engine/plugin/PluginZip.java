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
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
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
 * {@code classes/} with {@code META-INF/extensions.idx}) from a test plugin's compiled classes
 * ({@link ConfigurablePlugin}'s unless told otherwise), as a zip or an exploded directory.
 */
public final class PluginZip {
  private final String id;
  private Class<?> pluginClass = ConfigurablePlugin.class;
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

  /** A {@link ConfigurablePlugin} with id {@code id}. */
  public static PluginZip plugin(String id) {
    return new PluginZip(id);
  }

  /** The plugin class {@code cls} (and its nested classes), whose descriptor says {@code id}. */
  public static PluginZip of(String id, Class<?> cls) {
    PluginZip z = new PluginZip(id);
    z.pluginClass = cls;
    return z;
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
  public PluginZip with(String key, String value) {
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

  /** Writes {@code ID.zip} into {@code dir}. */
  public Path zipInto(Path dir) {
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

  /** Writes the plugin's files under {@code dir/ID}. */
  public Path explodeInto(Path dir) {
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
      m.put(
          "classes/META-INF/extensions.idx",
          (pluginClass.getName() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    String pkg = pluginClass.getPackageName().replace('.', '/');
    String simple = pluginClass.getSimpleName();
    Path root = testClassesRoot();
    // The test classes directory, or the engine's test jar when another module's tests use this.
    try (FileSystem jar = Files.isDirectory(root) ? null : FileSystems.newFileSystem(root);
        Stream<Path> s = Files.list((jar == null ? root : jar.getPath("/")).resolve(pkg))) {
      for (Path p : s.sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.startsWith(simple + ".") || name.startsWith(simple + "$")) {
          m.put("classes/" + pkg + "/" + name, Files.readAllBytes(p));
        }
      }
    }
    if (bundleApi) {
      for (Class<?> c :
          new Class<?>[] {
            SchedlabPlugin.class,
            PluginDescriptor.class,
            Contributions.class,
            PluginOptions.class,
            HookPoint.class
          }) {
        String path = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(path)) {
          m.put("classes/" + path, in.readAllBytes());
        }
      }
    }
    return m;
  }

  private Path testClassesRoot() {
    try {
      return Path.of(pluginClass.getProtectionDomain().getCodeSource().getLocation().toURI());
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
