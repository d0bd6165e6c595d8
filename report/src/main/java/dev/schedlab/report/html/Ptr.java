package dev.schedlab.report.html;

/**
 * JSON Pointers (RFC 6901) into the embedded input, for the page's numbers to name their source.
 */
public final class Ptr {
  private Ptr() {}

  /** The pointer of the path {@code tokens} (each token escaped: ~ as ~0, / as ~1). */
  public static String of(Object... tokens) {
    StringBuilder b = new StringBuilder();
    for (Object t : tokens) {
      b.append('/').append(String.valueOf(t).replace("~", "~0").replace("/", "~1"));
    }
    return b.toString();
  }

  /** {@code base} extended by {@code tokens}. */
  public static String at(String base, Object... tokens) {
    return base + of(tokens);
  }
}
