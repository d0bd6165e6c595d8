package dev.schedlab.traceimport.replay;

import dev.schedlab.traceimport.history.CpuMeasures;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.history.TaskMeasures;
import dev.schedlab.traceimport.history.TracedTask;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One column of the report: the trace, or a replay. Tasks are found by the scenario task name they
 * are replayed under (a replay's comms are those names).
 */
final class Side {
  final String label;
  final History history;
  private final Map<String, TaskMeasures> byName = new HashMap<>();
  final TaskMeasures total = new TaskMeasures();

  private Side(String label, History history) {
    this.label = label;
    this.history = history;
  }

  /** The trace: its tasks under their scenario names. */
  static Side trace(History h, Map<String, TracedTask> replayed) {
    Side s = new Side("trace", h);
    replayed.forEach((name, t) -> s.byName.put(name, t.measures()));
    for (TracedTask t : h.tasks()) {
      s.total.add(t.measures());
    }
    return s;
  }

  /** A replay: its tasks by comm (= scenario name). */
  static Side replay(ReplayRun run) {
    Side s = new Side(run.label(), run.history());
    for (TracedTask t : run.history().tasks()) {
      s.byName.merge(
          t.comm(),
          t.measures(),
          (a, b) -> {
            a.add(b);
            return a;
          });
      s.total.add(t.measures());
    }
    return s;
  }

  /** The measures of the task replayed as {@code name} (empty if it never showed up). */
  TaskMeasures task(String name) {
    return byName.getOrDefault(name, new TaskMeasures());
  }

  List<CpuMeasures> cpus() {
    return history.cpus();
  }

  /** From the start to when a task last ran: the trace's length, or how long the replay took. */
  long windowNs() {
    return Math.max(1, history.activeEndNs() - history.startNs());
  }
}
