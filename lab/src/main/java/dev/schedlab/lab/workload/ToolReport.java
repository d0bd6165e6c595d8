package dev.schedlab.lab.workload;

import dev.schedlab.engine.output.RunResult;
import java.util.Map;

/** Reads a finished run (metrics and raw samples) and prints what the real tool prints. */
public interface ToolReport {
  /** Structured report: nested maps of numbers and strings, keys stable (JSON {@code reports}). */
  Map<String, Object> json(RunResult result);

  /** The tool's own output format, ending in a newline. */
  String text(RunResult result);
}
