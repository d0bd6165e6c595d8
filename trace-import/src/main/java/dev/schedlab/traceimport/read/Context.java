package dev.schedlab.traceimport.read;

import org.jspecify.annotations.Nullable;

/** The context an event line was written from, as the ftrace flags column tells it. */
public enum Context {
  /** Task context (or a trace without the flags column: not known to be an interrupt). */
  TASK,
  /** A hard interrupt ({@code h}, {@code H}) or an NMI ({@code z}, {@code Z}). */
  HARDIRQ,
  /** A softirq ({@code s}). */
  SOFTIRQ;

  /** From the third character of a flags column such as {@code d.h2.}; TASK without flags. */
  static Context ofFlags(@Nullable String flags) {
    if (flags == null || flags.length() < 3) {
      return TASK;
    }
    return switch (flags.charAt(2)) {
      case 'h', 'H', 'z', 'Z' -> HARDIRQ;
      case 's' -> SOFTIRQ;
      default -> TASK;
    };
  }
}
