package dev.schedlab.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The shared secret every member of a cluster must hold, read from a file or from the environment
 * (never from the command line, where {@code ps} shows it to every user). It never crosses the
 * network: members prove it by deriving the cluster name from it ({@link #tag}), and Hazelcast
 * refuses a member whose cluster name differs.
 */
public final class Secret {
  /** The environment variable read when no file is given. */
  public static final String ENV = "SCHEDLAB_CLUSTER_SECRET";

  /** The shortest secret accepted, in bytes. */
  public static final int MIN_LENGTH = 16;

  private final byte[] key;
  private final String origin;

  private Secret(byte[] key, String origin) {
    this.key = key;
    this.origin = origin;
  }

  /**
   * The secret from {@code file} when given, else from {@link #ENV} in {@code env}.
   *
   * @throws ClusterException naming where the secret was looked for and how to give one
   */
  public static Secret resolve(@Nullable Path file, Map<String, String> env)
      throws ClusterException {
    if (file != null) {
      return fromFile(file);
    }
    String value = env.get(ENV);
    if (value == null || value.isBlank()) {
      throw new ClusterException(
          "cluster mode needs a shared secret: put one (at least "
              + MIN_LENGTH
              + " characters, for example from `head -c 32 /dev/urandom | base64`) in a file that only"
              + " you can read and pass --secret-file FILE, or set "
              + ENV
              + "; every member needs the"
              + " same one");
    }
    return of(value.strip(), "$" + ENV);
  }

  /** The secret in {@code file} (surrounding white space dropped). */
  static Secret fromFile(Path file) throws ClusterException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ClusterException("--secret-file " + file + ": no such file");
    } catch (IOException e) {
      throw new ClusterException("--secret-file " + file + ": cannot read: " + e.getMessage());
    }
    return of(text.strip(), file.toString());
  }

  /** A secret with the given text; {@code origin} names where it came from in messages. */
  static Secret of(String text, String origin) throws ClusterException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (bytes.length < MIN_LENGTH) {
      throw new ClusterException(
          "the cluster secret in "
              + origin
              + " has "
              + bytes.length
              + " bytes; use at least "
              + MIN_LENGTH);
    }
    return new Secret(bytes, origin);
  }

  /**
   * A warning when the file holding the secret can be read by other users, or null. Checked on
   * POSIX file systems only.
   */
  public static @Nullable String permissionWarning(Path file) {
    try {
      Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
      if (p.contains(PosixFilePermission.GROUP_READ)
          || p.contains(PosixFilePermission.OTHERS_READ)) {
        return "the secret file " + file + " can be read by other users; chmod 600 it";
      }
    } catch (UnsupportedOperationException | IOException e) {
      return null;
    }
    return null;
  }

  /** Where the secret came from: a file name or {@code $SCHEDLAB_CLUSTER_SECRET}. */
  public String origin() {
    return origin;
  }

  /**
   * 16 hex digits of HMAC-SHA256 keyed with the secret over {@code text}: the same on every member
   * holding the secret, and telling nothing about it.
   */
  String tag(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      byte[] h = mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(Arrays.copyOf(h, 8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  @Override
  public String toString() {
    return "secret from " + origin;
  }
}
