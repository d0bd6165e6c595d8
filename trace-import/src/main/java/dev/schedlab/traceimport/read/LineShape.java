package dev.schedlab.traceimport.read;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The part of an event line before its fields, in the two shapes the formats use: {@code COMM-PID
 * [CPU] FLAGS TIMESTAMP: EVENT: FIELDS} (tracefs, trace-cmd report; an optional {@code (TGID)}
 * column and an optional flags column) and {@code COMM PID [CPU] TIMESTAMP: SYSTEM:EVENT: FIELDS}
 * (perf script). Comms may contain spaces and dashes.
 */
final class LineShape {
  private static final Pattern FTRACE =
      Pattern.compile(
          "^\\s*(.*)-(\\d+)\\s+(?:\\(\\s*(?:\\d+|-+)\\)\\s+)?\\[(\\d+)\\]\\s+"
              + "(?:([a-zA-Z.0-9]{4,5})\\s+)?(\\d+)\\.(\\d+):\\s+(?:\\w+:)?(\\w+):\\s*(.*)$");
  private static final Pattern PERF =
      Pattern.compile(
          "^\\s*(.*?)\\s+(-?\\d+)(?:/(\\d+))?\\s+\\[(\\d+)\\]\\s+(\\d+)\\.(\\d+):\\s+(?:\\d+\\s+)?"
              + "(?:\\w+:)?(\\w+):\\s*(.*)$");

  /** Enough of a line to see it was an event line that stops early. */
  private static final Pattern STARTED = Pattern.compile("^\\s*\\S.*\\[\\d+\\]");

  /** A parsed line head. */
  record Head(
      String comm,
      int pid,
      int cpu,
      @Nullable String flags,
      long timeNs,
      String event,
      String fields) {}

  private LineShape() {}

  /** The head of {@code line} in {@code format}, or null when the line has no such shape. */
  static @Nullable Head parse(TraceFormat format, String line) {
    if (format == TraceFormat.PERF) {
      Matcher m = PERF.matcher(line);
      if (!m.matches()) {
        return null;
      }
      String tid = m.group(3);
      return new Head(
          m.group(1),
          parseInt(tid != null ? tid : m.group(2)),
          parseInt(m.group(4)),
          null,
          timeNs(m.group(5), m.group(6)),
          m.group(7),
          m.group(8));
    }
    Matcher m = FTRACE.matcher(line);
    if (!m.matches()) {
      return null;
    }
    return new Head(
        m.group(1),
        parseInt(m.group(2)),
        parseInt(m.group(3)),
        m.group(4),
        timeNs(m.group(5), m.group(6)),
        m.group(7),
        m.group(8));
  }

  /** Whether {@code line} starts like an event line (it has a {@code [CPU]} column). */
  static boolean started(String line) {
    return STARTED.matcher(line).find();
  }

  /** Whether {@code line} is an event line of {@code format} (for detecting the format). */
  static boolean matches(TraceFormat format, String line) {
    return parse(format, line) != null;
  }

  /** Seconds and a decimal fraction of any length as ns (digits past the ninth dropped). */
  static long timeNs(String sec, String frac) {
    long ns = 0;
    for (int i = 0; i < 9; i++) {
      ns = ns * 10 + (i < frac.length() ? frac.charAt(i) - '0' : 0);
    }
    return Long.parseLong(sec) * 1_000_000_000L + ns;
  }

  private static int parseInt(String s) {
    long v = Long.parseLong(s);
    return v > Integer.MAX_VALUE || v < Integer.MIN_VALUE ? -1 : (int) v;
  }
}
