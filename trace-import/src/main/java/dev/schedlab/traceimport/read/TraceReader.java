package dev.schedlab.traceimport.read;

import dev.schedlab.traceimport.TraceInputException;
import dev.schedlab.traceimport.Warnings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads a trace in any of the {@link TraceFormat}s. Skipped with a warning: events it does not
 * read, lost-event markers (kept as {@link TraceEvent.Lost}), a truncated line (one that stops
 * before its event's last field). An error naming the line: a line that is not an event line, a
 * known event whose fields do not parse, a CPU beyond the trace's CPU count, time going back on a
 * CPU.
 */
public final class TraceReader {
  private static final Pattern CPUS_HEADER = Pattern.compile("#P:(\\d+)");
  private static final Pattern TRACE_CMD_CPUS = Pattern.compile("^cpus=(\\d+)\\s*$");
  private static final Pattern LOST =
      Pattern.compile("^\\s*CPU:?\\s*(\\d+)\\s*\\[(?:LOST (\\d+) EVENTS|LOST EVENTS)\\]\\s*$");
  private static final Pattern BUFFER_STARTED =
      Pattern.compile("^#+\\s*CPU (\\d+) buffer started\\s*#+\\s*$");
  private static final Pattern EVENT_PART = Pattern.compile("\\d+\\.\\d+:\\s+[\\w:]+:");
  private static final Pattern CPU_EMPTY = Pattern.compile("^\\s*CPU \\d+ is empty\\s*$");

  private final String source;
  private final @Nullable TraceFormat forced;
  private @Nullable TraceFormat format;
  private int headerCpus = -1;
  private int maxCpu = -1;
  private long[] lastTime = new long[0];
  private final List<TraceEvent> events = new ArrayList<>();
  private final Warnings warnings;

  private TraceReader(String source, @Nullable TraceFormat forced) {
    this.source = source;
    this.forced = forced;
    this.warnings = new Warnings(source);
  }

  /** Reads {@code file}; {@code format} null detects it from the content. */
  public static Trace read(Path file, @Nullable TraceFormat format) throws TraceInputException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return new TraceReader(file.toString(), format).readAll(in);
    } catch (NoSuchFileException e) {
      throw new TraceInputException(file + ": no such file", e);
    } catch (java.nio.charset.MalformedInputException e) {
      throw new TraceInputException(
          file
              + ": not a text trace (not UTF-8); for a trace.dat run"
              + " `trace-cmd report` first, for perf.data `perf sched script`",
          e);
    } catch (IOException e) {
      throw new TraceInputException(file + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** Reads trace {@code text} named {@code source} in messages; {@code format} null detects it. */
  public static Trace parse(String source, String text, @Nullable TraceFormat format)
      throws TraceInputException {
    try {
      return new TraceReader(source, format).readAll(new BufferedReader(new StringReader(text)));
    } catch (IOException e) {
      throw new IllegalStateException(e); // a StringReader does not fail
    }
  }

  private Trace readAll(BufferedReader in) throws IOException, TraceInputException {
    String line = in.readLine();
    int no = 1;
    while (line != null) {
      String next = in.readLine();
      line(no, stripCr(line), next == null);
      line = next;
      no++;
    }
    if (format == null || events.isEmpty()) {
      throw new TraceInputException(
          source
              + ": no events; expected ftrace text (the tracefs trace"
              + " file), `trace-cmd report` output or `perf sched script` output");
    }
    int nrCpus = headerCpus;
    if (nrCpus < 0) {
      nrCpus = maxCpu + 1;
      warnings.add(
          "cpus",
          0,
          "the trace does not say how many CPUs the machine has; using "
              + nrCpus
              + " (the highest CPU with an event + 1)");
    }
    List<TraceEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(e -> e.at().timeNs())); // stable: ties keep input order
    return new Trace(source, format, nrCpus, sorted, warnings);
  }

  private static String stripCr(String s) {
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  private void line(int no, String line, boolean last) throws TraceInputException {
    if (line.isBlank()) {
      return;
    }
    Matcher m = BUFFER_STARTED.matcher(line);
    if (m.matches()) {
      int cpu = Integer.parseInt(m.group(1));
      warnings.add(
          "buffer-started",
          no,
          "CPU "
              + cpu
              + "'s buffer starts later than the others:"
              + " its earlier events were overwritten");
      return;
    }
    if (line.startsWith("#")) {
      m = CPUS_HEADER.matcher(line);
      if (m.find()) {
        headerCpus = Integer.parseInt(m.group(1));
      }
      if (format == null && forced == null && line.startsWith("# tracer:")) {
        format = TraceFormat.FTRACE;
      }
      return;
    }
    m = TRACE_CMD_CPUS.matcher(line);
    if (m.matches()) {
      headerCpus = Integer.parseInt(m.group(1));
      if (format == null && forced == null) {
        format = TraceFormat.TRACE_CMD;
      }
      return;
    }
    m = LOST.matcher(line);
    if (m.matches()) {
      lost(no, Integer.parseInt(m.group(1)), m.group(2) == null ? -1 : Long.parseLong(m.group(2)));
      return;
    }
    if (CPU_EMPTY.matcher(line).matches()) {
      return;
    }
    if (format == null) {
      format = forced != null ? forced : detect(line);
      if (format == null) {
        throw new TraceInputException(
            source
                + ":"
                + no
                + ": not a trace line; expected ftrace"
                + " text (COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS, the tracefs trace file or"
                + " `trace-cmd report`) or `perf sched script` output (COMM PID [CPU] SECONDS:"
                + " sched:EVENT: FIELDS)");
      }
    }
    LineShape.Head head = parseHead(no, line);
    if (head == null) {
      if (last) {
        warnings.add("truncated", no, "truncated line skipped (the trace ends inside it)");
        return;
      }
      if (LineShape.started(line) && !EVENT_PART.matcher(line).find()) {
        warnings.add("truncated", no, "truncated line skipped (it stops before its event)");
        return;
      }
      throw new TraceInputException(
          source + ":" + no + ": not a " + format.label() + " event line; expected " + shape());
    }
    event(no, head, last);
  }

  private LineShape.@Nullable Head parseHead(int no, String line) throws TraceInputException {
    try {
      return LineShape.parse(Objects.requireNonNull(format), line); // set from the first line
    } catch (NumberFormatException e) {
      throw new TraceInputException(
          source + ":" + no + ": a number out of range in the line head;" + " expected " + shape(),
          e);
    }
  }

  private String shape() {
    return format == TraceFormat.PERF
        ? "COMM PID [CPU] SECONDS: sched:EVENT: FIELDS"
        : "COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS";
  }

  private static @Nullable TraceFormat detect(String line) {
    if (LineShape.matches(TraceFormat.FTRACE, line)) {
      return TraceFormat.FTRACE;
    }
    return LineShape.matches(TraceFormat.PERF, line) ? TraceFormat.PERF : null;
  }

  private void event(int no, LineShape.Head h, boolean last) throws TraceInputException {
    if (h.cpu() < 0 || (headerCpus >= 0 && h.cpu() >= headerCpus)) {
      throw new TraceInputException(
          source
              + ":"
              + no
              + ": CPU "
              + h.cpu()
              + " is not on the traced"
              + " machine; expected a CPU below "
              + headerCpus
              + " (the trace's CPU count)");
    }
    if (!EventFields.known(h.event())) {
      warnings.add(
          "unknown:" + h.event(),
          no,
          "event " + h.event() + " is not used by the import;" + " skipped");
      return;
    }
    if (h.cpu() >= lastTime.length) {
      int old = lastTime.length;
      lastTime = Arrays.copyOf(lastTime, h.cpu() + 1);
      Arrays.fill(lastTime, old, lastTime.length, Long.MIN_VALUE);
    }
    if (h.timeNs() < lastTime[h.cpu()]) {
      throw new TraceInputException(
          source
              + ":"
              + no
              + ": time goes back on CPU "
              + h.cpu()
              + " ("
              + seconds(h.timeNs())
              + " after "
              + seconds(lastTime[h.cpu()])
              + "); expected each CPU's events in time order");
    }
    lastTime[h.cpu()] = h.timeNs();
    maxCpu = Math.max(maxCpu, h.cpu());
    String comm = h.comm().trim();
    TraceEvent.Where at =
        new TraceEvent.Where(no, h.cpu(), h.timeNs(), comm, h.pid(), Context.ofFlags(h.flags()));
    TraceEvent e;
    try {
      e = EventFields.parse(at, h.event(), h.fields());
    } catch (EventFields.BadFields bad) {
      if (bad.truncated || last) {
        warnings.add("truncated", no, "truncated " + h.event() + " line skipped");
        return;
      }
      throw new TraceInputException(
          source
              + ":"
              + no
              + ": "
              + h.event()
              + ": cannot read the"
              + " fields '"
              + h.fields()
              + "'; expected "
              + bad.getMessage());
    }
    if (e != null) {
      events.add(e);
    }
  }

  private void lost(int no, int cpu, long count) {
    warnings.add(
        "lost",
        no,
        "CPU "
            + cpu
            + " lost "
            + (count < 0 ? "some" : count)
            + " events"
            + " here; the tasks it ran are resynchronised from the next events");
    long t =
        cpu < lastTime.length && lastTime[cpu] != Long.MIN_VALUE
            ? lastTime[cpu]
            : events.isEmpty() ? 0 : events.get(events.size() - 1).at().timeNs();
    events.add(new TraceEvent.Lost(new TraceEvent.Where(no, cpu, t, "", -1, Context.TASK), count));
  }

  private static String seconds(long ns) {
    return String.format(
        java.util.Locale.ROOT, "%d.%09d", ns / 1_000_000_000L, ns % 1_000_000_000L);
  }
}
