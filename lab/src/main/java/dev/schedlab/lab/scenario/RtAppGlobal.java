package dev.schedlab.lab.scenario;

import dev.schedlab.lab.rtapp.LogSpec;
import java.util.List;
import java.util.Locale;

/**
 * rt-app's {@code global} object, read as rt-app's {@code parse_global()} reads it: every key of
 * doc/tutorial.txt, with rt-app's defaults and type checks. Keys without a meaning in the model are
 * noted; unknown keys are ignored (and noted), as rt-app ignores them.
 *
 * @param durationS {@code "duration"} in seconds (-1 = until the threads end)
 * @param calibrationNs an integer {@code "calibration"} (ns per loop), or 0 for a CPU name
 * @param defaultPolicy policy of threads without {@code policy}
 * @param piEnabled {@code pi_enabled}
 * @param log the log settings
 * @param ioDevice {@code io_device}
 * @param memBufferSize {@code mem_buffer_size}, bytes
 * @param cumulativeSlack {@code cumulative_slack}
 */
record RtAppGlobal(
    long durationS,
    long calibrationNs,
    String defaultPolicy,
    boolean piEnabled,
    LogSpec log,
    String ioDevice,
    long memBufferSize,
    boolean cumulativeSlack) {
  static final List<String> POLICIES =
      List.of(
          "SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE", "SCHED_RR", "SCHED_FIFO", "SCHED_DEADLINE");
  private static final List<String> KEYS =
      List.of(
          "duration",
          "calibration",
          "default_policy",
          "pi_enabled",
          "lock_pages",
          "logdir",
          "log_basename",
          "log_size",
          "ftrace",
          "gnuplot",
          "io_device",
          "mem_buffer_size",
          "cumulative_slack");
  private static final List<String> FTRACE =
      List.of("main", "task", "loop", "event", "stats", "none");
  private static final long DEFAULT_MEM_BUFFER = 4 * 1024 * 1024;

  /** rt-app's defaults when the file has no {@code global} object: no log files. */
  static RtAppGlobal defaults() {
    return new RtAppGlobal(
        -1, 0, "SCHED_OTHER", false, LogSpec.NONE, "/dev/null", DEFAULT_MEM_BUFFER, false);
  }

  static RtAppGlobal parse(Val v, List<String> notes) throws ScenarioException {
    if (v.node() == null || v.node().isNull()) {
      return defaults();
    }
    Obj g = v.object();
    for (String k : g.names()) {
      if (!KEYS.contains(k)) {
        notes.add(
            RtAppNotes.where(g.get(k)) + ": unknown global key ignored, as rt-app ignores it");
      }
    }
    long duration = g.has("duration") ? integer(g, "duration", Integer.MIN_VALUE) : -1;
    String policy = g.has("default_policy") ? string(g, "default_policy") : "SCHED_OTHER";
    if (!POLICIES.contains(policy)) {
      throw g.get("default_policy")
          .error("invalid policy " + policy + "; expected one of " + String.join(", ", POLICIES));
    }
    long calibration = 0;
    if (g.has("calibration")) {
      Val c = g.get("calibration");
      if (c.node().isIntegralNumber()) {
        calibration = c.integer(0, Integer.MAX_VALUE);
      } else if (!string(g, "calibration").matches("CPU-?\\d+.*")) {
        throw c.error("invalid calibration; expected \"CPUn\" or an integer (ns per loop)");
      } else {
        notes.add(
            RtAppNotes.where(c)
                + ": calibration "
                + c.text()
                + ": the model's "
                + "ns_per_loop parameter stands for the measured loop time");
      }
    }
    boolean gnuplot = bool(g, "gnuplot", false);
    long ringRows = 0;
    boolean logs = true;
    if (g.has("log_size")) {
      Val ls = g.get("log_size");
      if (ls.node().isIntegralNumber()) {
        long mb = ls.integer(Integer.MIN_VALUE, Integer.MAX_VALUE);
        long bytes = (long) ((int) mb << 20); // rt-app shifts an int
        logs = bytes != 0;
        ringRows = bytes > 0 ? bytes / LogSpec.ROW_BYTES : 0;
        if (bytes < 0) {
          throw ls.error("expected a log buffer size >= 0 (MB)");
        }
      } else {
        String mode = string(g, "log_size");
        if (mode.equals("disable")) {
          logs = false;
        } else if (!mode.equals("file") && !mode.equals("auto")) {
          logs = false;
          notes.add(
              RtAppNotes.where(ls)
                  + ": log_size \""
                  + mode
                  + "\" is none of disable, file, "
                  + "auto: rt-app leaves logging off");
        }
      }
    }
    String logdir = g.has("logdir") ? string(g, "logdir") : "./";
    String basename = g.has("log_basename") ? string(g, "log_basename") : "rt-app";
    if (g.has("ftrace")) {
      Val f = g.get("ftrace");
      if (!f.node().isBoolean()) {
        for (String cat : string(g, "ftrace").split(",", -1)) {
          if (!cat.isEmpty() && !FTRACE.contains(cat.toLowerCase(Locale.ROOT))) {
            throw f.error(
                "invalid ftrace category '"
                    + cat
                    + "'; expected a comma-separated list"
                    + " of "
                    + String.join(", ", FTRACE));
          }
        }
      }
      notes.add(
          RtAppNotes.where(f)
              + ": ftrace markers are not written; use --trace for the"
              + " scheduler events");
    }
    if (g.has("lock_pages")) {
      bool(g, "lock_pages", true);
      notes.add(
          RtAppNotes.where(g.get("lock_pages"))
              + ": lock_pages: no effect (no paging in"
              + " the model)");
    }
    boolean pi = bool(g, "pi_enabled", false);
    String io = g.has("io_device") ? string(g, "io_device") : "/dev/null";
    long memBuffer =
        g.has("mem_buffer_size") ? integer(g, "mem_buffer_size", 1) : DEFAULT_MEM_BUFFER;
    boolean cumulative = bool(g, "cumulative_slack", false);
    return new RtAppGlobal(
        duration,
        calibration,
        policy,
        pi,
        new LogSpec(logs, logdir, basename, ringRows, gnuplot),
        io,
        memBuffer,
        cumulative);
  }

  private static String string(Obj g, String key) throws ScenarioException {
    Val v = g.get(key);
    if (!v.node().isTextual()) {
      throw v.error("invalid type for key " + key + "; expected a string");
    }
    return v.node().textValue();
  }

  private static long integer(Obj g, String key, long min) throws ScenarioException {
    Val v = g.get(key);
    if (!v.node().isIntegralNumber()) {
      throw v.error("invalid type for key " + key + "; expected an integer");
    }
    return v.integer(min, Integer.MAX_VALUE);
  }

  private static boolean bool(Obj g, String key, boolean def) throws ScenarioException {
    if (!g.has(key)) {
      return def;
    }
    Val v = g.get(key);
    if (!v.node().isBoolean()) {
      throw v.error("invalid type for key " + key + "; expected true or false");
    }
    return v.node().booleanValue();
  }
}
