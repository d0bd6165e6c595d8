package dev.schedlab.cluster;

/**
 * A cluster cannot start or a member cannot take part, for a reason the user can fix (no secret, an
 * address that does not parse or bind, a member refused); the message says what and how.
 */
public class ClusterException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An exception with {@code message}. */
  public ClusterException(String message) {
    super(message);
  }

  /** An exception with {@code message} and its {@code cause}. */
  public ClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
