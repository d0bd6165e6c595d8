package dev.schedlab.traceimport.read;

import dev.schedlab.traceimport.read.TraceEvent.IrqKind;
import dev.schedlab.traceimport.read.TraceEvent.WakeKind;
import dev.schedlab.traceimport.read.TraceEvent.Where;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The fields of the events the importer understands, in the kernel's own print format ({@code
 * prev_comm=... prev_pid=...}, tracefs and perf) and in trace-cmd's plugin format ({@code prev:pid
 * [prio] S ==> next:pid [prio]}). Comms may contain spaces.
 */
final class EventFields {
  /** A known event whose fields do not parse. */
  static final class BadFields extends Exception {
    private static final long serialVersionUID = 1L;

    /** The fields stop before the event's last field: a truncated line. */
    final boolean truncated;

    BadFields(boolean truncated, String expected) {
      super(expected);
      this.truncated = truncated;
    }
  }

  private static final Pattern SWITCH =
      Pattern.compile(
          "prev_comm=(.*) prev_pid=(-?\\d+) prev_prio=(-?\\d+) prev_state=(\\S+) ==> "
              + "next_comm=(.*) next_pid=(-?\\d+) next_prio=(-?\\d+)\\s*");
  private static final Pattern SWITCH_TC =
      Pattern.compile("(.*):(-?\\d+) \\[(-?\\d+)\\] (\\S+) ==> (.*):(-?\\d+) \\[(-?\\d+)\\]\\s*");
  private static final Pattern WAKE =
      Pattern.compile("comm=(.*) pid=(\\d+) prio=(-?\\d+)(?: success=\\d+)? target_cpu=(\\d+)\\s*");
  private static final Pattern WAKE_TC =
      Pattern.compile("(.*):(\\d+) \\[(-?\\d+)\\](?: success=\\d+)? CPU:(\\d+)\\s*");
  private static final Pattern FORK =
      Pattern.compile("comm=(.*) pid=(\\d+) child_comm=(.*) child_pid=(\\d+)\\s*");
  private static final Pattern EXIT = Pattern.compile("comm=(.*) pid=(\\d+) prio=(-?\\d+).*");
  private static final Pattern MIGRATE =
      Pattern.compile("comm=(.*) pid=(\\d+) prio=(-?\\d+) orig_cpu=(\\d+) dest_cpu=(\\d+)\\s*");
  private static final Pattern IRQ_ENTRY = Pattern.compile("irq=(\\d+) name=(.*)");
  private static final Pattern IRQ_EXIT = Pattern.compile("irq=(\\d+) ret=(\\w+)\\s*");
  private static final Pattern SOFTIRQ = Pattern.compile("vec=(\\d+) \\[action=(\\w+)\\]\\s*");
  private static final Pattern VECTOR = Pattern.compile("vector=(\\d+)\\s*");
  private static final Pattern IPI = Pattern.compile("\\((.*)\\)\\s*");
  private static final Pattern IPI_SEND =
      Pattern.compile("(?:cpu|cpumask|target_mask)=(\\S+)(?: callsite=(\\S+))?.*");

  /** The last field of each event: a line without it stopped early. */
  private static final Map<String, String> LAST =
      Map.ofEntries(
          Map.entry("sched_switch", "next_prio="),
          Map.entry("sched_waking", "target_cpu="),
          Map.entry("sched_wakeup", "target_cpu="),
          Map.entry("sched_wakeup_new", "target_cpu="),
          Map.entry("sched_process_fork", "child_pid="),
          Map.entry("sched_process_exit", "prio="),
          Map.entry("sched_migrate_task", "dest_cpu="),
          Map.entry("irq_handler_entry", "name="),
          Map.entry("irq_handler_exit", "ret="),
          Map.entry("softirq_entry", "]"),
          Map.entry("softirq_exit", "]"),
          Map.entry("ipi_entry", ")"),
          Map.entry("ipi_exit", ")"));

  /** trace-cmd's plugin format: the last field of the same events. */
  private static final Map<String, String> LAST_TC =
      Map.of(
          "sched_switch",
          "] ==> ",
          "sched_waking",
          "CPU:",
          "sched_wakeup",
          "CPU:",
          "sched_wakeup_new",
          "CPU:");

  /** Events that are understood and deliberately not used (no warning). */
  private static final java.util.Set<String> IGNORED =
      java.util.Set.of("cpu_idle", "sched_wake_idle_without_ipi", "softirq_raise");

  private EventFields() {}

  /** Whether {@code event} is read or knowingly ignored. */
  static boolean known(String event) {
    return IGNORED.contains(event) || parseable(event);
  }

  private static boolean parseable(String event) {
    return LAST.containsKey(event)
        || isVector(event)
        || event.equals("ipi_send_cpu")
        || event.equals("ipi_send_cpumask")
        || event.equals("ipi_raise");
  }

  /** x86 APIC vector tracepoints: {@code local_timer_entry}, {@code reschedule_exit}, ... */
  private static boolean isVector(String event) {
    return (event.endsWith("_entry") || event.endsWith("_exit"))
        && !event.startsWith("irq_handler")
        && !event.startsWith("softirq")
        && !event.startsWith("ipi_")
        && !event.startsWith("sys_")
        && VECTOR_EVENTS.contains(event.substring(0, event.lastIndexOf('_')));
  }

  private static final java.util.Set<String> VECTOR_EVENTS =
      java.util.Set.of(
          "local_timer",
          "reschedule",
          "call_function",
          "call_function_single",
          "irq_work",
          "spurious_apic",
          "error_apic",
          "x86_platform_ipi",
          "thermal_apic",
          "threshold_apic",
          "deferred_error_apic",
          "external_interrupt");

  /** The event of a line whose head is parsed; null for an event this importer does not read. */
  static @Nullable TraceEvent parse(Where at, String event, String fields) throws BadFields {
    if (!parseable(event)) {
      return null;
    }
    switch (event) {
      case "sched_switch" -> {
        Matcher m = match(event, fields, SWITCH, SWITCH_TC);
        return new TraceEvent.Switch(
            at, m.group(1), num(m, 2), num(m, 3), m.group(4), m.group(5), num(m, 6), num(m, 7));
      }
      case "sched_waking", "sched_wakeup", "sched_wakeup_new" -> {
        Matcher m = match(event, fields, WAKE, WAKE_TC);
        WakeKind kind =
            event.equals("sched_waking")
                ? WakeKind.WAKING
                : event.equals("sched_wakeup") ? WakeKind.WAKEUP : WakeKind.WAKEUP_NEW;
        return new TraceEvent.Wake(at, kind, m.group(1), num(m, 2), num(m, 3), num(m, 4));
      }
      case "sched_process_fork" -> {
        Matcher m = match(event, fields, FORK, null);
        return new TraceEvent.Fork(at, m.group(1), num(m, 2), m.group(3), num(m, 4));
      }
      case "sched_process_exit" -> {
        Matcher m = match(event, fields, EXIT, null);
        return new TraceEvent.Exit(at, m.group(1), num(m, 2));
      }
      case "sched_migrate_task" -> {
        Matcher m = match(event, fields, MIGRATE, null);
        return new TraceEvent.Migrate(at, m.group(1), num(m, 2), num(m, 4), num(m, 5));
      }
      case "irq_handler_entry" -> {
        Matcher m = match(event, fields, IRQ_ENTRY, null);
        return new TraceEvent.Irq(at, true, IrqKind.HARDIRQ, m.group(2).trim());
      }
      case "irq_handler_exit" -> {
        Matcher m = match(event, fields, IRQ_EXIT, null);
        return new TraceEvent.Irq(at, false, IrqKind.HARDIRQ, m.group(1));
      }
      case "softirq_entry", "softirq_exit" -> {
        Matcher m = match(event, fields, SOFTIRQ, null);
        return new TraceEvent.Irq(at, event.endsWith("entry"), IrqKind.SOFTIRQ, m.group(2));
      }
      case "ipi_entry", "ipi_exit" -> {
        Matcher m = match(event, fields, IPI, null);
        return new TraceEvent.Irq(at, event.endsWith("entry"), IrqKind.VECTOR, m.group(1));
      }
      case "ipi_send_cpu", "ipi_send_cpumask", "ipi_raise" -> {
        Matcher m = match(event, fields, IPI_SEND, null);
        return new TraceEvent.IpiSend(at, m.group(1), m.group(2) == null ? "" : m.group(2));
      }
      default -> { // an APIC vector
        match(event, fields, VECTOR, null);
        String name = event.substring(0, event.lastIndexOf('_'));
        return new TraceEvent.Irq(at, event.endsWith("_entry"), IrqKind.VECTOR, name);
      }
    }
  }

  private static Matcher match(String event, String fields, Pattern raw, @Nullable Pattern plugin)
      throws BadFields {
    Matcher m = raw.matcher(fields);
    if (m.matches()) {
      return m;
    }
    if (plugin != null) {
      Matcher p = plugin.matcher(fields);
      if (p.matches()) {
        return p;
      }
    }
    String last = LAST.get(event);
    boolean truncated;
    if (last == null) { // an APIC vector or an IPI send
      truncated = !fields.contains("=") || fields.endsWith("=");
    } else {
      String lastTc = LAST_TC.get(event);
      truncated = !fields.contains(last) && (lastTc == null || !fields.contains(lastTc));
    }
    throw new BadFields(truncated, EXPECTED.getOrDefault(event, "vector=N"));
  }

  private static final Map<String, String> EXPECTED =
      Map.ofEntries(
          Map.entry(
              "sched_switch",
              "prev_comm=COMM prev_pid=N prev_prio=N prev_state=S ==> "
                  + "next_comm=COMM next_pid=N next_prio=N, or trace-cmd's COMM:PID [PRIO] S ==> "
                  + "COMM:PID [PRIO]"),
          Map.entry(
              "sched_waking",
              "comm=COMM pid=N prio=N target_cpu=N, or trace-cmd's " + "COMM:PID [PRIO] CPU:N"),
          Map.entry(
              "sched_wakeup",
              "comm=COMM pid=N prio=N target_cpu=N, or trace-cmd's " + "COMM:PID [PRIO] CPU:N"),
          Map.entry(
              "sched_wakeup_new",
              "comm=COMM pid=N prio=N target_cpu=N, or trace-cmd's " + "COMM:PID [PRIO] CPU:N"),
          Map.entry("sched_process_fork", "comm=COMM pid=N child_comm=COMM child_pid=N"),
          Map.entry("sched_process_exit", "comm=COMM pid=N prio=N"),
          Map.entry("sched_migrate_task", "comm=COMM pid=N prio=N orig_cpu=N dest_cpu=N"),
          Map.entry("irq_handler_entry", "irq=N name=NAME"),
          Map.entry("irq_handler_exit", "irq=N ret=handled|unhandled"),
          Map.entry("softirq_entry", "vec=N [action=NAME]"),
          Map.entry("softirq_exit", "vec=N [action=NAME]"),
          Map.entry("ipi_entry", "(REASON)"),
          Map.entry("ipi_exit", "(REASON)"),
          Map.entry("ipi_send_cpu", "cpu=N callsite=SYMBOL callback=SYMBOL"),
          Map.entry("ipi_send_cpumask", "cpumask=LIST callsite=SYMBOL callback=SYMBOL"),
          Map.entry("ipi_raise", "target_mask=MASK (REASON)"));

  private static int num(Matcher m, int group) throws BadFields {
    try {
      return Integer.parseInt(m.group(group));
    } catch (NumberFormatException e) {
      throw new BadFields(false, "a number that fits in 32 bits, got " + m.group(group));
    }
  }
}
