package dev.schedlab.lab.workload;

/** A tool argument string that cannot be parsed: unknown option, missing or bad value. */
public final class ToolArgsException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error described by {@code message} (it names the option). */
  public ToolArgsException(String message) {
    super(message);
  }
}
