package dev.schedlab.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The engine's version, from the build. */
public final class Version {
  private static final String CURRENT = load();

  private Version() {}

  /** The project version this engine was built as. */
  public static String current() {
    return CURRENT;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
