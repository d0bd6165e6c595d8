package dev.schedlab.report;

/** An input the report cannot use; the message names the file (and line) and what was expected. */
public final class ReportInputException extends Exception {
  private static final long serialVersionUID = 1L;

  /** With a message naming the file and what was expected. */
  public ReportInputException(String message) {
    super(message);
  }
}
