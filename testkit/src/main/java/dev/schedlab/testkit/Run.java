package dev.schedlab.testkit;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.engine.output.RunResult;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * One finished run of a {@link PluginKit}: the engine's result with ways to read it in assertions.
 * Metric names are those of the JSON result ({@code sched.context_switches}, {@code mark.NAME},
 * {@code latency.NAME} for a latency series); tool reports are keyed by the tool's id.
 */
public final class Run {
  private final String label;
  private final RunResult result;
  private final Map<String, Object> reports;
  private final String reportText;
  private final Map<HookPoint, Long> hookCalls;
  private final List<String> trace;

  Run(
      String label,
      RunResult result,
      Map<String, Object> reports,
      String reportText,
      Map<HookPoint, Long> hookCalls,
      List<String> trace) {
    this.label = label;
    this.result = result;
    this.reports = reports;
    this.reportText = reportText;
    this.hookCalls = Map.copyOf(hookCalls);
    this.trace = List.copyOf(trace);
  }

  /** {@code baseline}, or the plugins enabled as option lines. */
  public String label() {
    return label;
  }

  /** The engine's result, as {@code schedlab run --format json} prints it. */
  public RunResult result() {
    return result;
  }

  /** The hash of the whole event stream: equal digests mean identical runs. */
  public String digest() {
    return result.digest();
  }

  /** Every metric by name. */
  public Map<String, Object> metrics() {
    return result.metrics();
  }

  /**
   * A counter or other whole-number metric.
   *
   * @throws IllegalArgumentException when the run has no such metric (naming those it has)
   */
  public long metric(String name) {
    Object v = result.metrics().get(name);
    if (v == null) {
      throw new IllegalArgumentException(
          "no metric '" + name + "' in run " + label + "; it has " + similar(name));
    }
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException(
          "metric '"
              + name
              + "' is a series "
              + v
              + "; read it with stat(\""
              + name
              + "\", \"p99\") or similar");
    }
    return n.longValue();
  }

  /** A counter that may never have been incremented (and so is absent): 0 then. */
  public long metricOrZero(String name) {
    return result.metrics().containsKey(name) ? metric(name) : 0;
  }

  /**
   * A statistic ({@code count}, {@code mean}, {@code max}, {@code p99}, ...) of series {@code
   * name}.
   */
  public double stat(String name, String stat) {
    Object series = result.metrics().get(name);
    if (!(series instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(
          "no series '" + name + "' in run " + label + "; it has " + similar(name));
    }
    Object v = m.get(stat);
    if (!(v instanceof Number n)) {
      throw new IllegalArgumentException(
          "series '"
              + name
              + "' has no statistic '"
              + stat
              + "'; it has "
              + new TreeSet<>(m.keySet().stream().map(Object::toString).toList()));
    }
    return n.doubleValue();
  }

  /** The report of the workload tool with id {@code toolId} (the JSON result's {@code reports}). */
  @SuppressWarnings("unchecked")
  public Map<String, Object> report(String toolId) {
    Object one = reports.get(toolId);
    if (!(one instanceof Map<?, ?> m) || !(m.get("report") instanceof Map<?, ?> r)) {
      throw new IllegalArgumentException(
          "no tool '" + toolId + "' in run " + label + "; tools: " + reports.keySet());
    }
    return (Map<String, Object>) r;
  }

  /** The tool reports as the tools print them ({@code schedlab run}'s text output). */
  public String reportText() {
    return reportText;
  }

  /** How often the engine called the hook the plugins contributed for {@code point}. */
  public long hookCalls(HookPoint point) {
    return hookCalls.getOrDefault(point, 0L);
  }

  /** The calls of every contributed hook, by point. */
  public Map<HookPoint, Long> hookCalls() {
    return hookCalls;
  }

  /** The ftrace text of the run when the kit traces ({@link PluginKit#tracing()}), else empty. */
  public List<String> trace() {
    return trace;
  }

  /** The trace lines of one event, e.g. {@code sched_switch} or {@code cpu_idle}. */
  public List<String> trace(String event) {
    String tag = " " + event + ": ";
    return trace.stream().filter(l -> l.contains(tag)).toList();
  }

  private String similar(String name) {
    String prefix = name.contains(".") ? name.substring(0, name.indexOf('.') + 1) : name;
    List<String> near =
        result.metrics().keySet().stream().filter(k -> k.startsWith(prefix)).sorted().toList();
    return near.isEmpty()
        ? result.metrics().size() + " metrics: " + new TreeSet<>(result.metrics().keySet())
        : near.stream().collect(Collectors.joining(", ", "[", "]"));
  }

  @Override
  public String toString() {
    return "Run[" + label + ", digest " + digest() + "]";
  }
}
