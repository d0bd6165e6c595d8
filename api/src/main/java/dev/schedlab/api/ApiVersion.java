package dev.schedlab.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of this API, {@code MAJOR.MINOR.PATCH} (docs/api.md has the rules). Plugins declare
 * the range they need in {@code plugin.requires} (for example {@code >=1.1.0 & <2.0.0}); the host
 * refuses a plugin whose range excludes it.
 *
 * <p>The value is read when this class is initialised from {@code api-version.properties}, which
 * the build fills in from the {@code schedlab.api.version} property: it is not a compile-time
 * constant, so a plugin compiled against one API jar and run on another sees the host's version.
 */
public final class ApiVersion {
  /** The API version this jar implements. */
  public static final String CURRENT = read();

  private ApiVersion() {}

  private static String read() {
    Properties p = new Properties();
    try (InputStream in = ApiVersion.class.getResourceAsStream("api-version.properties")) {
      if (in == null) {
        throw new IllegalStateException("api-version.properties is missing from the API jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read api-version.properties", e);
    }
    String v = p.getProperty("api.version", "");
    if (!v.matches("\\d+\\.\\d+\\.\\d+")) {
      throw new IllegalStateException(
          "api-version.properties: api.version must be MAJOR.MINOR.PATCH, got '" + v + "'");
    }
    return v;
  }
}
