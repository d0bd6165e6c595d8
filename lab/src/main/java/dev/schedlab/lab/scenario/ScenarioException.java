package dev.schedlab.lab.scenario;

/**
 * A scenario that cannot be loaded: unreadable file, syntax error, unknown field, ill-typed or
 * out-of-range value. The message has the form {@code FILE:LINE:COL: field.path: problem; expected
 * ...} (or {@code --set KEY=VALUE: field.path: ...} for a command-line override). Exit code 2.
 */
public final class ScenarioException extends Exception {
  private static final long serialVersionUID = 1L;

  /** An error with a complete {@code message}. */
  public ScenarioException(String message) {
    super(message);
  }

  /** An error with a complete {@code message} caused by {@code cause}. */
  public ScenarioException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An error at {@code where} on field {@code path}. */
  static ScenarioException at(SourceLocation where, String path, String problem) {
    String field = path.isEmpty() ? "" : path + ": ";
    return new ScenarioException(where + ": " + field + problem);
  }
}
