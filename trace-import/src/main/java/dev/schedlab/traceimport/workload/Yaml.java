package dev.schedlab.traceimport.workload;

/** The few YAML spellings the scenario text needs. */
final class Yaml {
  private Yaml() {}

  /** {@code s} as a double-quoted YAML scalar. */
  static String quoted(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7f) {
        b.append('_');
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** A comm as a scenario name: whitespace becomes {@code _}. */
  static String name(String comm) {
    String s = comm == null || comm.isEmpty() ? "task" : comm;
    return s.replaceAll("\\s", "_");
  }

  /** Nanoseconds as seconds with nine decimals (for comments). */
  static String seconds(long ns) {
    return String.format(
        java.util.Locale.ROOT, "%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L);
  }
}
