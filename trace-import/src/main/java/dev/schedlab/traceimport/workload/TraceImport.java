package dev.schedlab.traceimport.workload;

import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.traceimport.TraceInputException;
import dev.schedlab.traceimport.history.Action;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.history.TracedTask;
import dev.schedlab.traceimport.read.Trace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a {@link Trace} into a scenario: the trace's window as its duration, the machine (the
 * trace's CPU count on a generic machine, or a machine file), and one task per traced task that
 * ran, with its {@link ReplayProgram}. Tasks that never ran in the window are left out.
 */
public final class TraceImport {
  private TraceImport() {}

  /** Imports {@code trace}. */
  public static ImportedTrace of(Trace trace, ImportOptions opt)
      throws TraceInputException, ScenarioException {
    History history =
        History.of(
            trace.events(), trace.nrCpus(), trace.startNs(), trace.endNs(), trace.warnings());
    long duration = Math.max(1, trace.endNs() - trace.startNs());
    StringBuilder head = new StringBuilder();
    head.append("# Imported by `schedlab import-trace` from ")
        .append(trace.source())
        .append(" (")
        .append(trace.format().label())
        .append(", ")
        .append(trace.nrCpus())
        .append(" CPUs, ")
        .append(Yaml.seconds(duration))
        .append(" s).\n")
        .append("# Each task replays its traced stretches on a CPU as user work, its wakeups of\n")
        .append(
            "# other tasks as wake steps, a block ended by another task as a block on its own\n")
        .append(
            "# queue (it runs again when its waker's step runs), a block ended by an interrupt\n")
        .append("# as a sleep of the traced length. Times in ns. See docs/trace-replay.md.\n")
        .append("name: ")
        .append(Yaml.quoted(opt.name()))
        .append('\n')
        .append("seed: 1\n")
        .append("duration: ")
        .append(duration)
        .append('\n')
        .append("machine: ")
        .append(machine(trace, opt))
        .append('\n');
    Scenario machineOnly = parse(opt, head.toString(), List.of());
    int modelCpus = machineOnly.machine().nrCpus();
    if (modelCpus < trace.nrCpus()) {
      throw new TraceInputException(
          trace.source()
              + ": the trace has "
              + trace.nrCpus()
              + " CPUs but the machine file "
              + opt.machineFile()
              + " has "
              + modelCpus
              + "; expected a machine with at least the trace's CPUs");
    }
    if (modelCpus > trace.nrCpus()) {
      trace
          .warnings()
          .add(
              "machine-cpus",
              0,
              "the machine file has "
                  + modelCpus
                  + " CPUs, the"
                  + " trace "
                  + trace.nrCpus()
                  + "; the replay may use the extra CPUs");
    }
    PathCosts costs = PathCosts.of(machineOnly);
    Map<TracedTask, String> names = names(history.tasks());
    Map<String, TracedTask> replayed = new LinkedHashMap<>();
    StringBuilder text = new StringBuilder(head);
    StringBuilder kernel = new StringBuilder();
    if (opt.machineFile() != null) {
      // a calibrated file's background timers and kworkers are in the trace as its own events
      kernel
          .append("  # the trace holds the host's background work: none of the model's own\n")
          .append("  params: {bg.timer_rate_milli: 0}\n");
    }
    if (opt.autogroupsFile() != null) {
      autogroups(kernel, Autogroups.read(opt.autogroupsFile()), names);
    }
    if (kernel.length() > 0) {
      text.append("kernel:\n").append(kernel);
    }
    text.append("workload:\n  tasks:\n");
    Set<Integer> runningOn = new HashSet<>();
    for (Map.Entry<TracedTask, String> e : names.entrySet()) {
      TracedTask t = e.getKey();
      ReplayProgram.Program p =
          ReplayProgram.of(
              t,
              trace.startNs(),
              costs,
              w -> names.containsKey(w) ? Yaml.quoted(names.get(w)) : null);
      replayed.put(e.getValue(), t);
      boolean running = ReplayProgram.startsRunning(t, p) && runningOn.add(t.startCpu());
      task(text, e.getValue(), t, p, running, trace.startNs(), names);
    }
    if (names.isEmpty()) {
      throw new TraceInputException(
          trace.source() + ": no task ran in the trace; expected" + " sched_switch events");
    }
    String scenarioText = text.toString();
    long room = Math.max(3 * duration, duration + 1_000_000_000L);
    return new ImportedTrace(
        trace,
        history,
        scenarioText,
        parse(opt, scenarioText, List.of()),
        parse(opt, scenarioText, List.of("duration=" + room)),
        replayed);
  }

  /**
   * The fair tasks of each autogroup as one task group of a nice-0 task's weight (an autogroup at
   * nice 0 has {@code NICE_0_LOAD} shares, as {@code cpu.weight} 100 gives; autogroup.c). RT tasks
   * stay in the root group: autogroups have no RT bandwidth.
   */
  private static void autogroups(
      StringBuilder b, Autogroups groups, Map<TracedTask, String> names) {
    Map<Integer, List<String>> members = new TreeMap<>();
    for (Map.Entry<TracedTask, String> e : names.entrySet()) {
      Integer g = groups.of(e.getKey());
      if (g != null && e.getKey().prio() >= 100) {
        members.computeIfAbsent(g, x -> new ArrayList<>()).add(Yaml.quoted(e.getValue()));
      }
    }
    if (members.isEmpty()) {
      return;
    }
    b.append("  # the traced tasks' autogroups (--autogroups): one task group each\n")
        .append("  cgroups:\n");
    for (Map.Entry<Integer, List<String>> e : members.entrySet()) {
      b.append("    autogroup-")
          .append(e.getKey())
          .append(": {tasks: [")
          .append(String.join(", ", e.getValue()))
          .append("]}\n");
    }
  }

  private static String machine(Trace trace, ImportOptions opt) {
    if (opt.machineFile() == null) {
      return "{preset: small-x86, sockets: 1, cores_per_socket: "
          + trace.nrCpus()
          + ", threads_per_core: 1}   # the trace's CPU count; --machine FILE for the real one";
    }
    Path file = opt.machineFile().toAbsolutePath().normalize();
    if (opt.scenarioDir() != null) {
      Path dir = opt.scenarioDir().toAbsolutePath().normalize();
      try {
        file = dir.relativize(file);
      } catch (IllegalArgumentException e) {
        // another root: keep the absolute path
      }
    }
    // the traced stretches hold the host's stalls: none of the file's noise on top
    return "{file: "
        + Yaml.quoted(file.toString().replace('\\', '/'))
        + ", noise: {bins: []}}   # the trace holds the host's stalls";
  }

  private static Scenario parse(ImportOptions opt, String text, List<String> overrides)
      throws ScenarioException {
    Path base = opt.scenarioDir() != null ? opt.scenarioDir() : Path.of("");
    return ScenarioLoader.parse("imported scenario", text, true, "trace", base, null, overrides);
  }

  /** Scenario names for the tasks that ran: comm@pid, and .N for a reused pid. */
  private static Map<TracedTask, String> names(List<TracedTask> tasks) {
    Map<TracedTask, String> ordered = new LinkedHashMap<>();
    Map<String, Integer> used = new HashMap<>();
    for (TracedTask t : tasks) {
      if (t.measures().runs == 0 && t.measures().runtimeNs == 0) {
        continue;
      }
      String base =
          Yaml.name(t.comm()) + "@" + t.pid() + (t.generation() > 1 ? "." + t.generation() : "");
      int n = used.merge(base, 1, Integer::sum);
      String name = n == 1 ? base : base + "~" + n;
      ordered.put(t, name); // TracedTask keys compare by identity
    }
    return ordered;
  }

  private static void task(
      StringBuilder b,
      String name,
      TracedTask t,
      ReplayProgram.Program p,
      boolean running,
      long traceStart,
      Map<TracedTask, String> names) {
    b.append("    - name: ")
        .append(Yaml.quoted(name))
        .append("   # ")
        .append(origin(t, traceStart))
        .append('\n');
    int prio = t.prio();
    if (prio < 100) {
      // RT (prio 0-98 = 99 - rt_priority), stop (0) and deadline (-1, parameters not traced)
      int rt = prio < 0 ? 99 : Math.max(1, Math.min(99, 99 - prio));
      b.append("      policy: fifo\n      rt_priority: ").append(rt).append('\n');
    } else {
      int nice = Math.max(-20, Math.min(19, prio - 120));
      if (nice != 0) {
        b.append("      nice: ").append(nice).append('\n');
      }
    }
    if (forkedByReplayed(t, names)) {
      // created by its parent's fork step, when the parent gets there in the replay
      b.append("      forked: true\n");
    } else if (p.startNs() > 0) {
      b.append("      start: ").append(p.startNs()).append('\n');
    }
    if (t.startCpu() >= 0) {
      // alive when the trace starts: it starts where it was, not placed as a new task
      b.append("      start_cpu: ").append(t.startCpu()).append('\n');
    }
    if (ReplayProgram.startsAsleep(t)) {
      // asleep when the trace starts: it runs first when the wakeup the trace shows comes
      b.append("      start_asleep: true\n");
    }
    if (running) {
      // on its CPU when the trace starts: the replay starts there with it as the current task
      b.append("      start_running: true\n");
    }
    // the traced sleeps already include the timer slack the kernel added
    b.append("      timer_slack: 0\n      program:\n");
    for (String step : p.steps()) {
      b.append("        - ").append(step).append('\n');
    }
  }

  /** Whether {@code t} was forked by a replayed task (whose program then forks it). */
  private static boolean forkedByReplayed(TracedTask t, Map<TracedTask, String> names) {
    TracedTask parent = t.parent();
    if (t.start() != TracedTask.Start.FORKED || parent == null || !names.containsKey(parent)) {
      return false;
    }
    for (Action a : parent.actions()) {
      if (a instanceof Action.Exit) {
        return false;
      }
      if (a instanceof Action.Fork f && f.child() == t) {
        return true;
      }
    }
    return false;
  }

  private static String origin(TracedTask t, long traceStart) {
    String how =
        switch (t.start()) {
          case FORKED -> "created at " + Yaml.seconds(t.startNs() - traceStart) + " s";
          case RUNNING -> "running when the trace starts";
          case RUNNABLE -> "runnable when the trace starts";
          default -> "asleep when the trace starts";
        };
    return "pid " + t.pid() + ", prio " + t.prio() + ", " + how + (t.exited() ? ", exits" : "");
  }
}
