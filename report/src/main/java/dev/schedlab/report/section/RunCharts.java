package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.chart.BarChart;
import dev.schedlab.report.chart.Chart;
import dev.schedlab.report.chart.ColumnChart;
import dev.schedlab.report.chart.HistogramChart;
import dev.schedlab.report.chart.PercentileChart;
import dev.schedlab.report.chart.Value;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Ptr;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The charts of a run section, each from the run JSON's metrics or reports. */
final class RunCharts {
  /** The summary fields of a latency histogram and the percentile each stands for. */
  static final Map<String, Double> QUANTILES =
      Map.of("min", 0.0, "p50", 50.0, "p90", 90.0, "p99", 99.0, "p99.9", 99.9, "max", 100.0);

  static final List<String> QUANTILE_ORDER = List.of("min", "p50", "p90", "p99", "p99.9", "max");

  private RunCharts() {}

  /** Busy and idle time per CPU ({@code metrics.per_cpu}), or null without it. */
  static @Nullable Chart cpuBusy(JsonNode metrics) {
    JsonNode per = metrics.path("per_cpu");
    if (!per.isObject() || per.isEmpty()) {
      return null;
    }
    List<String> cpus = Numbers.names(per);
    List<Value> busy = new ArrayList<>();
    List<Value> idle = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (String c : cpus) {
      labels.add(c.replaceFirst("^cpu0*(?=\\d)", ""));
      busy.add(
          new Value(
              per.path(c).path("busy_ns").asDouble(), Ptr.of("metrics", "per_cpu", c, "busy_ns")));
      idle.add(
          new Value(
              per.path(c).path("idle_ns").asDouble(), Ptr.of("metrics", "per_cpu", c, "idle_ns")));
    }
    return ColumnChart.stacked(
        "cpu-busy",
        "Busy and idle time per CPU",
        "ms",
        1e6,
        labels,
        List.of("busy", "idle"),
        List.of("#4e79a7", "#d3d3d3"),
        List.of(busy, idle),
        "metrics.per_cpu: busy_ns (tasks, kernel paths, interrupts) and idle_ns (idle loop and"
            + " idle states) of each CPU; the per-CPU table below has the exact values.");
  }

  /** The latency series of the metrics ({@code latency.NAME}): a percentile chart and a table. */
  static String latencies(JsonNode metrics) {
    List<PercentileChart.Series> series = new ArrayList<>();
    List<List<Cell>> rows = new ArrayList<>();
    for (String name : Numbers.names(metrics)) {
      JsonNode h = metrics.get(name);
      if (!name.startsWith("latency.") || !h.isObject() || !h.has("p50")) {
        continue;
      }
      List<Cell> row = new ArrayList<>(List.of(Cell.text(name.substring("latency.".length()))));
      for (String k :
          List.of("count", "min", "p50", "p90", "p99", "p99.9", "max", "mean", "stddev")) {
        row.add(Cell.num(h.get(k), Ptr.of("metrics", name, k)));
      }
      rows.add(row);
      if (h.path("count").asLong() == 0) {
        continue;
      }
      List<PercentileChart.Point> pts = new ArrayList<>();
      for (String q : QUANTILE_ORDER) {
        if (h.has(q)) {
          pts.add(
              new PercentileChart.Point(
                  Objects.requireNonNull(QUANTILES.get(q)),
                  new Value(h.get(q).asDouble(), Ptr.of("metrics", name, q))));
        }
      }
      series.add(new PercentileChart.Series(name.substring("latency.".length()), pts));
    }
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder(Blocks.h(3, "Latency"));
    if (!series.isEmpty()) {
      b.append(
          Blocks.figure(
              PercentileChart.of(
                  "Latency distributions (metrics latency.*)",
                  "us",
                  1000,
                  series,
                  "Each line is one latency series of the run, read from its HdrHistogram"
                      + " summary: minimum, 50th, 90th, 99th, 99.9th percentile and maximum (the CDF with"
                      + " the tail spread out: each step right is ten times rarer).")));
    }
    b.append(
        Blocks.table(
            "Latency series (ns)",
            List.of(
                "series", "count", "min", "p50", "p90", "p99", "p99.9", "max", "mean", "stddev"),
            rows));
    return b.toString();
  }

  /** Histograms and percentile tables that tools printed ({@code reports}). */
  static String toolDistributions(JsonNode reports) {
    StringBuilder b = new StringBuilder();
    for (String id : Numbers.names(reports)) {
      JsonNode report = reports.get(id).path("report");
      String base = Ptr.of("reports", id, "report");
      String unit = report.path("unit").asText("");
      List<HistogramChart.Series> hists = new ArrayList<>();
      List<PercentileChart.Series> pcts = new ArrayList<>();
      collect(report, base, "", unit, hists, pcts);
      String tool = reports.get(id).path("tool").asText(id);
      if (!hists.isEmpty()) {
        b.append(
            Blocks.figure(
                HistogramChart.of(
                    id + ": latency histogram",
                    unit.isEmpty() ? "unit" : unit,
                    hists,
                    "The histogram "
                        + tool
                        + " printed (--histogram): bars count the samples of all"
                        + " threads per bucket; each line is one thread's cumulative share (right axis).")));
      }
      if (!pcts.isEmpty()) {
        b.append(
            Blocks.figure(
                PercentileChart.of(
                    id + ": latency percentiles",
                    unit.isEmpty() ? "ns" : unit,
                    1,
                    pcts,
                    "The percentiles " + tool + " printed, with its minimum and maximum.")));
      }
    }
    return b.toString();
  }

  private static void collect(
      JsonNode n,
      String ptr,
      String path,
      String unit,
      List<HistogramChart.Series> hists,
      List<PercentileChart.Series> pcts) {
    if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        collect(n.get(i), Ptr.at(ptr, i), path + "[" + i + "]", unit, hists, pcts);
      }
      return;
    }
    if (!n.isObject()) {
      return;
    }
    JsonNode h = n.get("histogram");
    if (h != null && h.isArray() && h.size() > 0 && h.get(0).isNumber()) {
      List<Long> counts = new ArrayList<>();
      h.forEach(x -> counts.add(x.asLong()));
      String name =
          n.has("thread") ? "thread " + n.get("thread").asText() : path.isEmpty() ? "all" : path;
      hists.add(new HistogramChart.Series(name, counts));
    }
    JsonNode p = n.get("percentiles");
    if (p != null && p.isObject()) {
      List<PercentileChart.Point> pts = new ArrayList<>();
      if (n.path("min").isNumber()) {
        pts.add(
            new PercentileChart.Point(0, new Value(n.get("min").asDouble(), Ptr.at(ptr, "min"))));
      }
      for (String k : Numbers.names(p)) {
        if (p.get(k).isNumber() && k.matches("\\d+(\\.\\d+)?")) {
          double pct = Double.parseDouble(k);
          if (pct > 0 && pct < 100) {
            pts.add(
                new PercentileChart.Point(
                    pct, new Value(p.get(k).asDouble(), Ptr.at(ptr, "percentiles", k))));
          }
        }
      }
      if (n.path("max").isNumber()) {
        pts.add(
            new PercentileChart.Point(100, new Value(n.get("max").asDouble(), Ptr.at(ptr, "max"))));
      }
      pcts.add(new PercentileChart.Series(path.isEmpty() ? "all" : path, pts));
    }
    for (String k : Numbers.names(n)) {
      if (!k.equals("histogram") && !k.equals("percentiles")) {
        collect(n.get(k), Ptr.at(ptr, k), path.isEmpty() ? k : path + "." + k, unit, hists, pcts);
      }
    }
  }

  /** IPIs by path: sent as a real IPI, or replaced by a flag write to a polling CPU. */
  static @Nullable Chart ipis(JsonNode metrics) {
    Set<String> paths = new LinkedHashSet<>();
    for (String k : Numbers.names(metrics)) {
      if (k.startsWith("ipi.sent.") || k.startsWith("ipi.polling_shortcut.")) {
        paths.add(k.substring(k.lastIndexOf('.') + 1));
      }
    }
    if (paths.isEmpty()) {
      return null;
    }
    List<String> cats = new ArrayList<>(paths);
    List<Value> sent = new ArrayList<>();
    List<Value> shortcut = new ArrayList<>();
    for (String p : cats) {
      sent.add(counter(metrics, "ipi.sent." + p));
      shortcut.add(counter(metrics, "ipi.polling_shortcut." + p));
    }
    return BarChart.of(
        "ipis",
        "IPIs by path",
        "count",
        cats,
        List.of("IPI sent", "polling shortcut (no IPI)"),
        List.of(sent, shortcut),
        "For each reason a CPU had to interrupt another (metrics"
            + " ipi.sent.* and ipi.polling_shortcut.*): the IPIs sent, and the times the target was"
            + " polling in idle so a write to its thread flags replaced the IPI.");
  }

  /** Interrupts taken, by vector ({@code irq.taken.*}). */
  static @Nullable Chart interrupts(JsonNode metrics) {
    List<String> cats = new ArrayList<>();
    List<Value> vals = new ArrayList<>();
    for (String k : Numbers.names(metrics)) {
      if (k.startsWith("irq.taken.")) {
        cats.add(k.substring("irq.taken.".length()));
        vals.add(counter(metrics, k));
      }
    }
    if (cats.isEmpty()) {
      return null;
    }
    return BarChart.of(
        "irqs",
        "Interrupts taken by vector",
        "count",
        cats,
        List.of("taken"),
        List.of(vals),
        "metrics irq.taken.*: interrupts handled, over all CPUs.");
  }

  /** Wakeups by path through try_to_wake_up(). */
  static @Nullable Chart wakeups(JsonNode metrics) {
    if (!metrics.path("sched.wakeups").isNumber()) {
      return null;
    }
    Value total = counter(metrics, "sched.wakeups");
    Value runnable = counter(metrics, "sched.wakeups_runnable");
    Value wakelist = counter(metrics, "sched.wakeups_wakelist");
    Value direct = Value.derived(total.v() - runnable.v() - wakelist.v());
    return BarChart.of(
        "wakeups",
        "Wakeups by path",
        "count",
        List.of(
            "all wakeups",
            "still queued (ttwu_runnable)",
            "remote wake list (ttwu_queue)",
            "activated by the waker (ttwu_do_activate)"),
        List.of("wakeups"),
        List.of(List.of(total, runnable, wakelist, direct)),
        "metrics sched.wakeups, sched.wakeups_runnable and sched.wakeups_wakelist; the last bar is"
            + " the rest: the waker queued the task itself.");
  }

  private static Value counter(JsonNode metrics, String name) {
    JsonNode n = metrics.get(name);
    return n != null && n.isNumber()
        ? new Value(n.asDouble(), Ptr.of("metrics", name))
        : Value.derived(0);
  }
}
