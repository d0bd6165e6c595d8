package dev.schedlab.report.timeline;

import dev.schedlab.engine.output.TraceSink;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads ftrace text (the tracefs {@code trace} file format that schedlab's FtraceWriter and the
 * kernel write) and replays its scheduling events into a {@link TraceSink}: {@code sched_switch},
 * {@code sched_waking}, {@code sched_wakeup}, {@code cpu_idle}, {@code irq_handler_entry/exit},
 * {@code ipi_entry/exit}. Other events are skipped; a line that is not an event line is an error
 * naming the file and line.
 */
public final class FtraceReader {
  // comm-pid [cpu] flags(optional) seconds.fraction: event: fields
  private static final Pattern LINE =
      Pattern.compile(
          "^\\s*(.+)-(\\d+)\\s+(?:\\(\\s*[\\d-]+\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S{4,5}\\s+)?(\\d+)\\.(\\d{1,9}):\\s+(\\w+):\\s?(.*)$");
  private static final Pattern CPUS = Pattern.compile("#P:(\\d+)\\s*$");
  private static final Pattern FIELD = Pattern.compile("(\\w+)=(\\S*)");
  private static final Pattern REASON = Pattern.compile("^\\((.*)\\)$");

  private FtraceReader() {}

  /** The CPU count of the header's {@code #P:N} line, if the file has one before its events. */
  public static OptionalInt cpus(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      OptionalInt n = OptionalInt.empty();
      while ((line = in.readLine()) != null && line.startsWith("#")) {
        Matcher m = CPUS.matcher(line);
        if (m.find()) {
          n = OptionalInt.of(Integer.parseInt(m.group(1)));
        }
      }
      return n;
    }
  }

  /** Whether {@code file} starts like an ftrace text file ({@code # tracer:} header). */
  public static boolean looksLikeFtrace(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String first = in.readLine();
      return first != null && first.startsWith("# tracer:");
    } catch (java.nio.charset.MalformedInputException e) {
      return false;
    }
  }

  /** Replays {@code file} into {@code sink}; throws {@link TraceFormatException} on a bad line. */
  public static void read(Path file, TraceSink sink) throws IOException, TraceFormatException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int no = 0;
      while ((line = in.readLine()) != null) {
        no++;
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
          throw new TraceFormatException(
              file
                  + ":"
                  + no
                  + ": not an ftrace event line (expected 'comm-pid [cpu] flags sec.frac: event: fields')");
        }
        try {
          dispatch(m, sink);
        } catch (RuntimeException e) {
          throw new TraceFormatException(
              file + ":" + no + ": " + m.group(6) + ": " + e.getMessage());
        }
      }
    }
  }

  private static void dispatch(Matcher m, TraceSink sink) {
    String comm = m.group(1).trim();
    int pid = Integer.parseInt(m.group(2));
    int cpu = Integer.parseInt(m.group(3));
    String frac = m.group(5);
    long t =
        Long.parseLong(m.group(4)) * 1_000_000_000L
            + Long.parseLong(frac) * (long) Math.pow(10, 9 - frac.length());
    String event = m.group(6);
    String body = m.group(7);
    switch (event) {
      case "sched_switch" -> {
        Map<String, String> f = fields(body);
        sink.schedSwitch(
            t,
            cpu,
            req(f, "prev_comm"),
            integer(f, "prev_pid"),
            integer(f, "prev_prio"),
            req(f, "prev_state").isEmpty() ? 'R' : req(f, "prev_state").charAt(0),
            req(f, "next_comm"),
            integer(f, "next_pid"),
            integer(f, "next_prio"));
      }
      case "sched_waking", "sched_wakeup" -> {
        Map<String, String> f = fields(body);
        int target = f.containsKey("target_cpu") ? integer(f, "target_cpu") : cpu;
        if (event.equals("sched_waking")) {
          sink.schedWaking(
              t, cpu, comm, pid, req(f, "comm"), integer(f, "pid"), integer(f, "prio"), target);
        } else {
          sink.schedWakeup(
              t, cpu, comm, pid, req(f, "comm"), integer(f, "pid"), integer(f, "prio"), target);
        }
      }
      case "cpu_idle" -> {
        Map<String, String> f = fields(body);
        long state = Long.parseLong(req(f, "state"));
        int on = f.containsKey("cpu_id") ? integer(f, "cpu_id") : cpu;
        sink.cpuIdle(t, on, comm, pid, state == 4294967295L ? -1 : (int) state);
      }
      case "irq_handler_entry" -> {
        Map<String, String> f = fields(body);
        sink.irqEntry(t, cpu, comm, pid, integer(f, "irq"), f.getOrDefault("name", "irq"));
      }
      case "irq_handler_exit" -> sink.irqExit(t, cpu, comm, pid, integer(fields(body), "irq"));
      case "ipi_entry", "ipi_exit" -> {
        Matcher r = REASON.matcher(body.trim());
        String reason = r.matches() ? r.group(1) : body.trim();
        if (event.equals("ipi_entry")) {
          sink.ipiEntry(t, cpu, comm, pid, reason);
        } else {
          sink.ipiExit(t, cpu, comm, pid, reason);
        }
      }
      default -> {} // other events carry nothing the report draws
    }
  }

  private static Map<String, String> fields(String body) {
    Map<String, String> f = new HashMap<>();
    Matcher m = FIELD.matcher(body);
    while (m.find()) {
      f.putIfAbsent(m.group(1), m.group(2));
    }
    return f;
  }

  private static String req(Map<String, String> f, String key) {
    String v = f.get(key);
    if (v == null) {
      throw new IllegalArgumentException("missing field " + key);
    }
    return v;
  }

  private static int integer(Map<String, String> f, String key) {
    String v = req(f, key);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("field " + key + ": expected an integer, got '" + v + "'");
    }
  }
}
