package dev.schedlab.traceimport.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedlab.traceimport.history.CpuMeasures;
import dev.schedlab.traceimport.history.TaskMeasures;
import dev.schedlab.traceimport.workload.ImportedTrace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What the kernel did beside what the model did with the same workload: per task and in total the
 * runtime, runs, wakeups, wakeup latency (p50, p90, p99, max), migrations and context switches; per
 * CPU the utilisation, context switches and interrupts. One column per replay (the model, and the
 * model with plugins).
 */
public final class ReplayReport {
  private final ImportedTrace imported;
  private final Side trace;
  private final List<Side> replays = new ArrayList<>();
  private final List<ReplayRun> runs;

  /** The report of {@code runs} (the first without plugins) of {@code imported}. */
  public ReplayReport(ImportedTrace imported, List<ReplayRun> runs) {
    this.imported = imported;
    this.runs = List.copyOf(runs);
    this.trace = Side.trace(imported.history(), imported.replayed());
    for (ReplayRun r : runs) {
      replays.add(Side.replay(r));
    }
  }

  /** Task names in the order of the report: traced runtime, largest first. */
  List<String> order() {
    List<String> names = new ArrayList<>(imported.replayed().keySet());
    names.sort(
        Comparator.comparingLong((String n) -> -trace.task(n).runtimeNs)
            .thenComparing(Comparator.naturalOrder()));
    return names;
  }

  /** The measures of task {@code name} in the trace. */
  public TaskMeasures traced(String name) {
    return trace.task(name);
  }

  /** The measures of task {@code name} in replay {@code i} (0: the model without plugins). */
  public TaskMeasures replayed(int i, String name) {
    return replays.get(i).task(name);
  }

  /** Text: a header, the {@code top} tasks by traced runtime, the total and the CPUs. */
  public String text(int top) {
    StringBuilder b = new StringBuilder();
    var t = imported.trace();
    b.append(
        String.format(
            Locale.ROOT,
            "trace      %s (%s, %d CPUs, %.6f s, %d tasks replayed)%n",
            t.source(),
            t.format().label(),
            t.nrCpus(),
            trace.windowNs() / 1e9,
            imported.replayed().size()));
    for (int i = 0; i < runs.size(); i++) {
      ReplayRun r = runs.get(i);
      Side s = replays.get(i);
      b.append(
          String.format(
              Locale.ROOT,
              "%-10s %.6f s (%+.1f%% against the trace), %d of %d"
                  + " programs finished; digest %s%n",
              r.label(),
              s.windowNs() / 1e9,
              100.0 * (s.windowNs() - trace.windowNs()) / trace.windowNs(),
              r.finished(),
              imported.replayed().size(),
              r.result().digest()));
    }
    String cols = String.join(" / ", labels());
    b.append(
        String.format(
            Locale.ROOT,
            "%nper task (%s): runtime in ms, diff against the trace;"
                + " wakeup latency (wakeup to switch-in) in us%n",
            cols));
    b.append(
        String.format(
            Locale.ROOT,
            "%-28s %-26s %7s  %-19s %-19s %-21s %-21s %-15s %-17s%n",
            "task",
            "runtime",
            "diff",
            "runs",
            "wakeups",
            "latency p50",
            "latency p99",
            "migrations",
            "switches vol+inv"));
    List<String> names = order();
    int shown = 0;
    for (String n : names) {
      if (shown++ == top) {
        b.append(
            String.format(
                Locale.ROOT,
                "... %d more tasks (--top, or --format json for all)%n",
                names.size() - top));
        break;
      }
      row(b, n, trace.task(n), replays.stream().map(s -> s.task(n)).toList());
    }
    row(b, "total", trace.total, replays.stream().map(s -> s.total).toList());
    for (int i = 0; i < runs.size(); i++) {
      long steps = 0;
      for (String n : names) {
        steps += runs.get(i).wakeSteps(n);
      }
      long early = steps - replays.get(i).total.wakeupsByTask;
      b.append(
          String.format(
              Locale.ROOT,
              "%s: %d of the trace's %d wakeups by tasks replayed as"
                  + " wake steps; %d of them found the task not yet asleep (it did not block)%n",
              replays.get(i).label,
              steps,
              trace.total.wakeupsByTask,
              Math.max(0, early)));
    }
    b.append(String.format(Locale.ROOT, "%nper CPU (%s)%n", cols));
    b.append(
        String.format(
            Locale.ROOT,
            "%-6s %-26s %-26s %-26s%n",
            "cpu",
            "utilisation %",
            "context switches",
            "interrupts"));
    for (int c = 0; c < trace.cpus().size(); c++) {
      final int cpu = c;
      b.append(
          String.format(
              Locale.ROOT,
              "%-6d %-26s %-26s %-26s%n",
              c,
              cells(s -> pct(s.cpus().get(cpu).busyNs, s.windowNs()), "%.1f"),
              cells(s -> (double) s.cpus().get(cpu).contextSwitches, "%.0f"),
              cells(s -> (double) s.cpus().get(cpu).interrupts, "%.0f")));
    }
    if (!t.warnings().isEmpty()) {
      b.append(String.format(Locale.ROOT, "%nimport warnings:%n"));
      for (String w : t.warnings().lines()) {
        b.append("  ").append(w).append('\n');
      }
    }
    return b.toString();
  }

  private List<String> labels() {
    List<String> l = new ArrayList<>();
    l.add("trace");
    replays.forEach(s -> l.add(s.label));
    return l;
  }

  private String cells(java.util.function.ToDoubleFunction<Side> f, String fmt) {
    List<String> parts = new ArrayList<>();
    parts.add(String.format(Locale.ROOT, fmt, f.applyAsDouble(trace)));
    for (Side s : replays) {
      parts.add(String.format(Locale.ROOT, fmt, f.applyAsDouble(s)));
    }
    return String.join(" / ", parts);
  }

  private static double pct(long busy, long window) {
    return 100.0 * busy / window;
  }

  private static void row(StringBuilder b, String name, TaskMeasures tr, List<TaskMeasures> rs) {
    StringBuilder rt = new StringBuilder(ms(tr.runtimeNs));
    StringBuilder runs = new StringBuilder().append(tr.runs);
    StringBuilder wk = new StringBuilder().append(tr.wakeups);
    StringBuilder p50 = new StringBuilder(us(tr.wakeLatency.getValueAtPercentile(50)));
    StringBuilder p99 = new StringBuilder(us(tr.wakeLatency.getValueAtPercentile(99)));
    StringBuilder mig = new StringBuilder().append(tr.migrations);
    StringBuilder sw = new StringBuilder().append(tr.voluntarySwitches + tr.involuntarySwitches);
    for (TaskMeasures r : rs) {
      rt.append(" / ").append(ms(r.runtimeNs));
      runs.append(" / ").append(r.runs);
      wk.append(" / ").append(r.wakeups);
      p50.append(" / ").append(us(r.wakeLatency.getValueAtPercentile(50)));
      p99.append(" / ").append(us(r.wakeLatency.getValueAtPercentile(99)));
      mig.append(" / ").append(r.migrations);
      sw.append(" / ").append(r.voluntarySwitches + r.involuntarySwitches);
    }
    String diff =
        tr.runtimeNs == 0
            ? "-"
            : String.format(
                Locale.ROOT,
                "%+.1f%%",
                100.0 * (rs.get(0).runtimeNs - tr.runtimeNs) / tr.runtimeNs);
    b.append(
        String.format(
            Locale.ROOT,
            "%-28s %-26s %7s  %-19s %-19s %-21s %-21s %-15s %-17s%n",
            clip(name, 28),
            rt,
            diff,
            runs,
            wk,
            p50,
            p99,
            mig,
            sw));
  }

  private static String clip(String s, int n) {
    return s.length() <= n ? s : s.substring(0, n - 1) + "~";
  }

  private static String ms(long ns) {
    return String.format(Locale.ROOT, "%.3f", ns / 1e6);
  }

  private static String us(long ns) {
    return String.format(Locale.ROOT, "%.1f", ns / 1e3);
  }

  /** JSON: the trace, the replays, every task, the total and the CPUs. */
  public String json() {
    Map<String, Object> root = new LinkedHashMap<>();
    var t = imported.trace();
    Map<String, Object> tr = new LinkedHashMap<>();
    tr.put("source", t.source());
    tr.put("format", t.format().label());
    tr.put("cpus", t.nrCpus());
    tr.put("window_ns", trace.windowNs());
    tr.put("warnings", t.warnings().lines());
    root.put("trace", tr);
    List<Map<String, Object>> rl = new ArrayList<>();
    for (ReplayRun r : runs) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("label", r.label());
      m.put("plugins", r.result().plugins());
      m.put("seed", r.result().seed());
      m.put("digest", r.result().digest());
      m.put("finished", r.finished());
      m.put("window_ns", Side.replay(r).windowNs());
      m.put("events", r.result().events());
      rl.add(m);
    }
    root.put("replays", rl);
    List<Map<String, Object>> tasks = new ArrayList<>();
    for (String n : order()) {
      Map<String, Object> m = new LinkedHashMap<>();
      var src = Objects.requireNonNull(imported.replayed().get(n));
      m.put("name", n);
      m.put("pid", src.pid());
      m.put("comm", src.comm());
      m.put("trace", measures(trace.task(n)));
      for (int i = 0; i < replays.size(); i++) {
        Map<String, Object> r = measures(replays.get(i).task(n));
        r.put("wake_steps", runs.get(i).wakeSteps(n));
        m.put(replays.get(i).label, r);
      }
      tasks.add(m);
    }
    root.put("tasks", tasks);
    Map<String, Object> total = new LinkedHashMap<>();
    total.put("trace", measures(trace.total));
    replays.forEach(s -> total.put(s.label, measures(s.total)));
    root.put("total", total);
    List<Map<String, Object>> cpus = new ArrayList<>();
    for (int c = 0; c < trace.cpus().size(); c++) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("cpu", c);
      m.put("trace", cpu(trace, c));
      for (Side s : replays) {
        m.put(s.label, cpu(s, c));
      }
      cpus.add(m);
    }
    root.put("cpus", cpus);
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root)
          + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> measures(TaskMeasures m) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("runtime_ns", m.runtimeNs);
    o.put("runs", m.runs);
    o.put("wakeups", m.wakeups);
    o.put("wakeups_by_task", m.wakeupsByTask);
    o.put("wakeups_while_running", m.wakeupsRunning);
    o.put("migrations", m.migrations);
    o.put("voluntary_switches", m.voluntarySwitches);
    o.put("involuntary_switches", m.involuntarySwitches);
    Map<String, Object> lat = new LinkedHashMap<>();
    lat.put("count", m.wakeLatency.getTotalCount());
    lat.put("p50", m.wakeLatency.getValueAtPercentile(50));
    lat.put("p90", m.wakeLatency.getValueAtPercentile(90));
    lat.put("p99", m.wakeLatency.getValueAtPercentile(99));
    lat.put("max", m.wakeLatency.getMaxValue());
    o.put("wake_latency_ns", lat);
    return o;
  }

  private static Map<String, Object> cpu(Side s, int c) {
    Map<String, Object> o = new LinkedHashMap<>();
    if (c >= s.cpus().size()) {
      return o;
    }
    CpuMeasures m = s.cpus().get(c);
    o.put("utilisation", Math.round(10000.0 * m.busyNs / s.windowNs()) / 10000.0);
    o.put("busy_ns", m.busyNs);
    o.put("context_switches", m.contextSwitches);
    o.put("interrupts", m.interrupts);
    o.put("irq_ns", m.irqNs);
    o.put("ipis_sent", m.ipisSent);
    return o;
  }
}
