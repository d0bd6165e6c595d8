package dev.schedlab.traceimport.read;

/** The context an event line was written from, as the ftrace flags column tells it. */
public enum Context {
  /** Task context (or a trace without the flags column: not known to be an interrupt). */
  TASK,
  /** A hard interrupt ({@code h}, {@code H}) or an NMI ({@code z}, {@code Z}). */
  HARDIRQ,
  /** A softirq ({@code s}). */
  SOFTIRQ;

  /** From the third character of a flags column such as {@code d.h2.}; TASK without flags. */
  static Context ofFlags(String flags) {
    if (flags == null || flags.length() < 3) {
      return TASK;
    }
    switch (flags.charAt(2)) {
      case 'h':
      case 'H':
      case 'z':
      case 'Z':
        return HARDIRQ;
      case 's':
        return SOFTIRQ;
      default:
        return TASK;
    }
  }
}
