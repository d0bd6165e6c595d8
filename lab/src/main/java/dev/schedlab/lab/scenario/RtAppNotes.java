package dev.schedlab.lab.scenario;

/** How the notes of an rt-app import name a place in the file. */
final class RtAppNotes {
  private RtAppNotes() {}

  /** {@code LINE: PATH}, e.g. {@code 12: tasks.t.util_min}. */
  static String where(Val v) {
    SourceLocation l = v.tree().locate(v.path());
    return (l.line() > 0 ? "line " + l.line() + ": " : "") + v.path();
  }
}
