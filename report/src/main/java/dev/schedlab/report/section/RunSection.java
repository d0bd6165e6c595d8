package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.Section;
import dev.schedlab.report.html.Blocks;
import dev.schedlab.report.html.Cell;
import dev.schedlab.report.html.Fmt;
import dev.schedlab.report.html.Ptr;
import dev.schedlab.report.timeline.Timeline;
import dev.schedlab.report.timeline.TimelineChart;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The section of one run ({@code schedlab run --format json}): its facts, per-CPU busy time, the
 * timeline when a trace came with it, latency distributions, IPIs and wakeups by path, the tools'
 * reports and every metric.
 */
public final class RunSection {
  private RunSection() {}

  /** The section of {@code run}, with {@code timeline} (finished) or null. */
  public static Section of(JsonNode run, String json, @Nullable Timeline timeline) {
    JsonNode metrics = run.path("metrics");
    StringBuilder b = new StringBuilder();
    List<Cell[]> facts = new ArrayList<>();
    facts.add(new Cell[] {Cell.text("scenario"), Cell.text(run.path("scenario").asText())});
    facts.add(new Cell[] {Cell.text("seed"), Cell.num(run.get("seed"), Ptr.of("seed"))});
    List<String> plugins = new ArrayList<>();
    run.path("plugins").forEach(p -> plugins.add(p.asText()));
    facts.add(
        new Cell[] {
          Cell.text("plugins"), Cell.text(plugins.isEmpty() ? "none" : String.join(", ", plugins))
        });
    facts.add(
        new Cell[] {
          Cell.text("simulated time (ns)"), Cell.num(run.get("sim_ns"), Ptr.of("sim_ns"))
        });
    facts.add(new Cell[] {Cell.text("events"), Cell.num(run.get("events"), Ptr.of("events"))});
    facts.add(new Cell[] {Cell.text("digest"), Cell.text(run.path("digest").asText())});
    facts.add(new Cell[] {Cell.text("schedlab"), Cell.text(run.path("schedlab_version").asText())});
    b.append(Blocks.facts(facts));
    if (timeline != null) {
      b.append(Blocks.figure(TimelineChart.of(timeline)));
    }
    b.append(Blocks.figure(RunCharts.cpuBusy(metrics)));
    b.append(RunCharts.latencies(metrics));
    b.append(RunCharts.toolDistributions(run.path("reports")));
    b.append(Blocks.figure(RunCharts.ipis(metrics)));
    b.append(Blocks.figure(RunCharts.interrupts(metrics)));
    b.append(Blocks.figure(RunCharts.wakeups(metrics)));
    b.append(RunTables.perCpu(metrics));
    b.append(RunTables.reports(run.path("reports")));
    b.append(RunTables.metrics(metrics));
    String title = "Run: " + run.path("scenario").asText() + ", seed " + Fmt.json(run.get("seed"));
    return new Section("run", title, b.toString(), json, "run.json");
  }
}
