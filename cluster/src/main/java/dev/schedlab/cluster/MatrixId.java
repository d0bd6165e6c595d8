package dev.schedlab.cluster;

import dev.schedlab.lab.matrix.Cell;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The run id of a whole matrix (or of one share of it): the first 16 hex digits of SHA-256 over the
 * run ids of its cells in order. Like a cell's run id it is the same on every machine and in every
 * invocation, so a restarted coordinator gets the same cluster name and its workers find it again;
 * changing any cell gives another id.
 */
public final class MatrixId {
  private MatrixId() {}

  /** The id of the matrix made of {@code cells}. */
  public static String of(List<Cell> cells) {
    StringBuilder in = new StringBuilder("schedlab-matrix/1\n");
    cells.forEach(c -> in.append(c.runId()).append('\n'));
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest(in.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(h, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The Hazelcast cluster name of matrix {@code id} for members holding {@code secret}: a member
   * without the secret derives another name and Hazelcast refuses its join.
   */
  static String clusterName(String id, Secret secret) {
    return "schedlab-" + id + "-" + secret.tag("schedlab-cluster/1 " + id);
  }

  /** Whether {@code text} looks like a matrix id (16 lower-case hex digits). */
  public static boolean valid(String text) {
    return text.matches("[0-9a-f]{16}");
  }
}
