package dev.schedlab.it;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/** The plugin zips under test ({@code target/plugins}) and altered copies of them. */
final class PluginZips {
  private PluginZips() {}

  /** Every plugin zip, by plugin id. */
  static Map<String, Path> all() throws IOException {
    Map<String, Path> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(Cli.pluginsDir())) {
      for (Path z : s.filter(p -> p.toString().endsWith(".zip")).toList()) {
        out.put(properties(z).getProperty("plugin.id"), z);
      }
    }
    return out;
  }

  static Properties properties(Path zip) throws IOException {
    try (ZipFile z = new ZipFile(zip.toFile());
        InputStream in = z.getInputStream(z.getEntry("plugin.properties"))) {
      Properties p = new Properties();
      p.load(in);
      return p;
    }
  }

  /** A copy of {@code zip} whose plugin.properties has {@code changes} applied. */
  static void withProperties(Path zip, Path to, Map<String, String> changes) throws IOException {
    try (ZipFile in = new ZipFile(zip.toFile());
        OutputStream os = Files.newOutputStream(to);
        ZipOutputStream out = new ZipOutputStream(os)) {
      for (ZipEntry e : java.util.Collections.list(in.entries())) {
        byte[] data = in.getInputStream(e).readAllBytes();
        if (e.getName().equals("plugin.properties")) {
          Properties p = new Properties();
          p.load(new ByteArrayInputStream(data));
          changes.forEach(p::setProperty);
          java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
          p.store(b, null);
          data = b.toByteArray();
        }
        out.putNextEntry(new ZipEntry(e.getName()));
        out.write(data);
        out.closeEntry();
      }
    }
  }
}
