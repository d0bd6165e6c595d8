package dev.schedlab.report.timeline;

/** A trace file line that cannot be read; the message names the file and line. */
public final class TraceFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  /** With a message naming file, line and what was expected. */
  public TraceFormatException(String message) {
    super(message);
  }
}
