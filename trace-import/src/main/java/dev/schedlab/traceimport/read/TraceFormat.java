package dev.schedlab.traceimport.read;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The text formats the importer reads. */
public enum TraceFormat {
  /** The tracefs {@code trace} file (or {@code trace_pipe}), schedlab's own traces included. */
  FTRACE("ftrace"),
  /** {@code trace-cmd report} of a {@code trace.dat}. */
  TRACE_CMD("trace-cmd"),
  /** {@code perf sched script} (or {@code perf script}) of a {@code perf sched record}. */
  PERF("perf");

  private final String label;

  TraceFormat(String label) {
    this.label = label;
  }

  /** The name users write ({@code --input-format}). */
  public String label() {
    return label;
  }

  /** The format labelled {@code s}, or null. */
  public static @Nullable TraceFormat ofLabel(String s) {
    for (TraceFormat f : values()) {
      if (f.label.equals(s.toLowerCase(Locale.ROOT))) {
        return f;
      }
    }
    return null;
  }
}
