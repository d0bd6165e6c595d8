package dev.schedlab.lab.rtapp;

import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.output.AtomicFiles;
import dev.schedlab.lab.rtapp.RtAppPlan.ThreadPlan;
import dev.schedlab.lab.workload.ToolReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The rt-app part of a run: the notes of the import, per-thread statistics of rt-app's log columns,
 * and the log files rt-app would have written ({@code LOGDIR/BASENAME-THREAD.log}, and with {@code
 * gnuplot} the {@code .plot} scripts).
 */
public final class RtAppReport implements ToolReport {
  private final RtAppPlan plan;

  public RtAppReport(RtAppPlan plan) {
    this.plan = plan;
  }

  public RtAppPlan plan() {
    return plan;
  }

  /** A thread that ran: its shape, task name and index. */
  private record Ran(ThreadPlan plan, String name, long index) {}

  /** The threads of the run in index order: those of the file, then the forked ones. */
  private List<Ran> threads(RunResult r) {
    List<Ran> out = new ArrayList<>();
    List<Ran> forks = new ArrayList<>();
    for (ThreadPlan t : plan.threads()) {
      if (!t.template()) {
        out.add(new Ran(t, t.name(), t.index()));
        continue;
      }
      Pattern p =
          Pattern.compile(
              "clock/(" + Pattern.quote(comm(t.key())) + "-(\\d+)-\\d{4})/" + RtAppPlan.START);
      for (String k : r.rawSamples().keySet()) {
        Matcher m = p.matcher(k);
        if (m.matches()) {
          forks.add(new Ran(t, m.group(1), Long.parseLong(m.group(2))));
        }
      }
    }
    forks.sort((a, b) -> Long.compare(a.index(), b.index()));
    out.addAll(forks);
    return out;
  }

  private static String comm(String name) {
    return name.replace(' ', '_');
  }

  /** Each thread's log rows, by thread name, in index order. */
  public Map<String, List<LogRow>> rows(RunResult r) {
    Map<String, List<LogRow>> out = new LinkedHashMap<>();
    for (Ran t : threads(r)) {
      out.put(t.name(), LogRows.of(plan, t.plan(), comm(t.name()), t.index(), r.rawSamples()));
    }
    return out;
  }

  @Override
  public Map<String, Object> json(RunResult result) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("file", plan.file());
    m.put("notes", plan.notes());
    Map<String, Object> threads = new LinkedHashMap<>();
    if (plan.log().enabled()) {
      for (Map.Entry<String, List<LogRow>> e : rows(result).entrySet()) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("rows", e.getValue().size());
        t.putAll(LogStats.summary(e.getValue()));
        threads.put(e.getKey(), t);
      }
    }
    m.put("threads", threads);
    return m;
  }

  @Override
  public String text(RunResult result) {
    StringBuilder sb = new StringBuilder();
    for (String n : plan.notes()) {
      sb.append("note: ").append(n).append('\n');
    }
    if (!plan.log().enabled()) {
      return sb.append("(logging off: no per-phase statistics)\n").toString();
    }
    sb.append(
        String.format(
            Locale.ROOT,
            "%-24s %6s %24s %24s %16s%n",
            "thread",
            "rows",
            "wu_lat p50/p99/max us",
            "slack p50/p1(min) us",
            "run p50 us"));
    for (Map.Entry<String, List<LogRow>> e : rows(result).entrySet()) {
      List<LogRow> rows = e.getValue();
      if (rows.isEmpty()) {
        sb.append(String.format(Locale.ROOT, "%-24s %6d%n", e.getKey(), 0));
        continue;
      }
      long[] wu = LogStats.column(rows, "wu_lat");
      long[] slack = LogStats.column(rows, "slack");
      long[] run = LogStats.column(rows, "run");
      sb.append(
          String.format(
              Locale.ROOT,
              "%-24s %6d %24s %24s %16d%n",
              e.getKey(),
              rows.size(),
              LogStats.percentile(wu, 50)
                  + "/"
                  + LogStats.percentile(wu, 99)
                  + "/"
                  + LogStats.percentile(wu, 100),
              LogStats.percentile(slack, 50)
                  + "/"
                  + java.util.Arrays.stream(slack).min().orElseThrow(),
              LogStats.percentile(run, 50)));
    }
    return sb.toString().replace(System.lineSeparator(), "\n");
  }

  /** The files rt-app would write, by file name (none when its logging is off). */
  public Map<String, String> files(RunResult r) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!plan.log().enabled()) {
      return out;
    }
    String base = plan.log().basename();
    List<String[]> plotted = new ArrayList<>();
    for (Ran t : threads(r)) {
      List<LogRow> rows = LogRows.of(plan, t.plan(), comm(t.name()), t.index(), r.rawSamples());
      out.put(base + "-" + t.name() + ".log", LogFormat.log(rows));
      plotted.add(new String[] {t.name(), t.plan().policy()});
    }
    if (plan.log().gnuplot()) {
      for (String[] t : plotted) {
        out.put(base + "-" + t[0] + ".plot", LogFormat.threadPlot(base, t[0]));
      }
      out.put(base + "-period.plot", LogFormat.mainPlot(base, true, plotted));
      out.put(base + "-run.plot", LogFormat.mainPlot(base, false, plotted));
    }
    return out;
  }

  /**
   * The directory the logs go to: {@code override} when given, else the file's {@code logdir}
   * resolved as rt-app resolves it (relative to the working directory).
   */
  public Path logDir(@Nullable Path override) {
    return override != null ? override : Path.of(plan.log().logdir());
  }

  /**
   * Writes {@link #files} into {@code dir}, which must exist (rt-app refuses to start otherwise):
   * every file is first written beside its target, then all are renamed into place, so a failure
   * leaves none of them half-written. Returns the paths written.
   */
  public List<Path> writeLogs(RunResult r, Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      throw new IOException(
          "log directory " + dir + " does not exist (rt-app requires an" + " existing logdir)");
    }
    Map<Path, Path> staged = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, String> f : files(r).entrySet()) {
        Path target = dir.resolve(f.getKey());
        Path temp = AtomicFiles.tempBeside(target);
        staged.put(temp, target);
        Files.writeString(temp, f.getValue(), StandardCharsets.UTF_8);
      }
      List<Path> written = new ArrayList<>();
      for (Map.Entry<Path, Path> s : staged.entrySet()) {
        AtomicFiles.moveInto(s.getKey(), s.getValue());
        written.add(s.getValue());
      }
      return written;
    } finally {
      for (Path temp : staged.keySet()) {
        Files.deleteIfExists(temp);
      }
    }
  }
}
