package dev.schedlab.traceimport.workload;

import dev.schedlab.traceimport.TraceInputException;
import dev.schedlab.traceimport.history.TracedTask;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The autogroup ({@code CONFIG_SCHED_AUTOGROUP}) of each thread of a trace, from a file of {@code
 * TID N} lines (thread id, N of {@code /autogroup-N} in {@code /proc/PID/autogroup}) taken as the
 * recording starts; {@code #} starts a comment. A thread not listed is in the root task group
 * (kernel threads, init's session). A task forked during the trace is in its parent's autogroup
 * ({@code sched_autogroup_fork()}, kernel/sched/autogroup.c).
 */
public final class Autogroups {
  private final Map<Integer, Integer> byTid;

  private Autogroups(Map<Integer, Integer> byTid) {
    this.byTid = byTid;
  }

  /** Reads {@code file}; a line that is not two integers is an error naming the line. */
  public static Autogroups read(Path file) throws TraceInputException {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new TraceInputException(file + ": cannot read the autogroups file: " + e, e);
    }
    Map<Integer, Integer> byTid = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      int hash = line.indexOf('#');
      if (hash >= 0) {
        line = line.substring(0, hash).strip();
      }
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\\s+", -1);
      try {
        if (f.length != 2) {
          throw new NumberFormatException();
        }
        int tid = Integer.parseInt(f[0]);
        int group = Integer.parseInt(f[1]);
        if (tid <= 0 || group <= 0) {
          throw new NumberFormatException();
        }
        byTid.put(tid, group);
      } catch (NumberFormatException e) {
        throw new TraceInputException(
            file
                + ":"
                + (i + 1)
                + ": expected 'TID AUTOGROUP' (a thread id and the N of /autogroup-N), got '"
                + lines.get(i).strip()
                + "'");
      }
    }
    return new Autogroups(byTid);
  }

  /** The autogroup of {@code t}, or null for the root task group. */
  public @Nullable Integer of(TracedTask t) {
    if (t.start() == TracedTask.Start.FORKED) {
      TracedTask parent = t.parent();
      return parent != null ? of(parent) : null;
    }
    return t.generation() == 1 ? byTid.get(t.pid()) : null;
  }
}
