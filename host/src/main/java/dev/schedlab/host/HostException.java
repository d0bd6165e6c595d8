package dev.schedlab.host;

/** A host measurement that cannot be made here (no compiler, a tool that failed), with why. */
public final class HostException extends Exception {
  private static final long serialVersionUID = 1L;

  public HostException(String message) {
    super(message);
  }

  public HostException(String message, Throwable cause) {
    super(message, cause);
  }
}
