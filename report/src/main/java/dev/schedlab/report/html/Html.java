package dev.schedlab.report.html;

/** Escaping for HTML text, attributes and JSON placed inside a script element. */
public final class Html {
  private Html() {}

  /** {@code s} safe as element text or a double-quoted attribute value. */
  public static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * JSON text safe inside {@code <script type="application/json">}: every {@code <} becomes <code>
   * &#92;u003c</code>. In JSON a {@code <} can only stand inside a string, where the escape means
   * the same character, so the parsed value is unchanged and no {@code </script>} can appear.
   */
  public static String scriptJson(String json) {
    return json.replace("<", "\\u003c");
  }

  /** An id-safe token made of {@code s}: letters, digits and '-' only. */
  public static String id(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(Character.isLetterOrDigit(c) && c < 128 ? Character.toLowerCase(c) : '-');
    }
    return b.toString();
  }
}
