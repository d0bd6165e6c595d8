package dev.schedlab.report.html;

import org.jspecify.annotations.Nullable;

/**
 * One table cell.
 *
 * @param text what is shown
 * @param sort the value the column sorts by (a number as text for numeric columns), or null
 * @param ptr JSON Pointer of the shown number in the embedded input, or null
 * @param cls CSS class, or null
 */
public record Cell(String text, @Nullable String sort, @Nullable String ptr, @Nullable String cls) {
  /** A text cell. */
  public static Cell text(String s) {
    return new Cell(s, null, null, null);
  }

  /** A number from the input at {@code ptr} ("-" when absent). */
  public static Cell num(com.fasterxml.jackson.databind.@Nullable JsonNode n, String ptr) {
    if (n == null || !n.isNumber()) {
      return new Cell("-", "", null, "num");
    }
    return new Cell(Fmt.json(n), Double.toString(n.asDouble()), ptr, "num");
  }

  /** A derived number (no pointer). */
  public static Cell derived(double v) {
    return new Cell(Fmt.num(v), Double.toString(v), null, "num");
  }
}
