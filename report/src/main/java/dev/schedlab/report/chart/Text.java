package dev.schedlab.report.chart;

/** Text width estimates for layout (the page's 11 px sans-serif; no font metrics needed). */
final class Text {
  private Text() {}

  /** Approximate width in px of {@code s} at 11 px. */
  static double width(String s) {
    return s.length() * 6.2;
  }

  /** {@code s} cut to {@code max} characters with an ellipsis. */
  static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, Math.max(1, max - 1)) + "\u2026";
  }
}
