package dev.schedlab.lab.scenario;

/**
 * Where a scenario value came from: a file position (1-based line and column) or a command-line
 * override.
 *
 * @param source file name as given, or {@code --set key=value}
 * @param line 1-based line, 0 when not from a file
 * @param column 1-based column, 0 when unknown
 */
record SourceLocation(String source, int line, int column) {
  /** A location that is not a file position, such as a {@code --set} override. */
  static SourceLocation of(String source) {
    return new SourceLocation(source, 0, 0);
  }

  @Override
  public String toString() {
    if (line <= 0) {
      return source;
    }
    return column > 0 ? source + ":" + line + ":" + column : source + ":" + line;
  }
}
