package dev.schedlab.lab.experiment;

import java.util.List;

/** Renders rows as a Markdown-style pipe table with padded columns. */
public final class Tables {
  private Tables() {}

  /** {@code rows.get(0)} is the header. */
  public static String render(List<List<String>> rows) {
    int cols = rows.get(0).size();
    int[] w = new int[cols];
    for (List<String> r : rows) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < rows.size(); k++) {
      List<String> r = rows.get(k);
      sb.append('|');
      for (int i = 0; i < cols; i++) {
        sb.append(' ').append(pad(r.get(i), w[i])).append(" |");
      }
      sb.append('\n');
      if (k == 0) {
        sb.append('|');
        for (int i = 0; i < cols; i++) {
          sb.append("-".repeat(w[i] + 2)).append('|');
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static String pad(String s, int w) {
    return s + " ".repeat(w - s.length());
  }
}
