package dev.schedlab.traceimport;

/**
 * A trace that cannot be imported: unreadable, not a trace, or a line that does not parse. The
 * message has the form {@code FILE:LINE: problem; expected ...}. Exit code 2.
 */
public final class TraceInputException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error with a complete {@code message}. */
  public TraceInputException(String message) {
    super(message);
  }

  /** An error with a complete {@code message} caused by {@code cause}. */
  public TraceInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
