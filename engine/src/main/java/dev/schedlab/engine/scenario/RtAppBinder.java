package dev.schedlab.engine.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Imports rt-app JSON (scheduler-tools/rt-app, doc/tutorial.txt): the common subset of
 * {@code tasks} (instance, loop, delay, policy, priority, cpus, dl-runtime, dl-period,
 * dl-deadline, phases with loop; events run, runtime, sleep, timer, lock, unlock, wait, signal,
 * barrier) and {@code global} (duration, default_policy; calibration, logdir, log_basename,
 * lock_pages, ftrace, gnuplot are accepted and have no effect). C-style comments are allowed.
 * Any other key is rejected with its key path. Event keys match by prefix as in rt-app
 * ({@code run1}, {@code sleep_b}).
 */
final class RtAppBinder {
  private static final List<String> GLOBAL = List.of("duration", "default_policy", "calibration",
      "logdir", "log_basename", "lock_pages", "ftrace", "gnuplot");
  private static final List<String> TASK_ATTRS = List.of("instance", "loop", "policy", "priority",
      "cpus", "dl-runtime", "dl-period", "dl-deadline", "delay", "phases");
  private static final List<String> EVENTS =
      List.of("runtime", "run", "sleep", "timer", "unlock", "lock", "wait", "signal", "barrier");

  private RtAppBinder() {}

  /** Whether {@code root} looks like an rt-app file: a {@code tasks} map. */
  static boolean isRtApp(JsonNode root) {
    return root != null && root.isObject() && root.has("tasks") && root.get("tasks").isObject();
  }

  /** A whole scenario from an rt-app file; {@code --set} may add machine, kernel, seed, plugins. */
  static Scenario scenario(LocatedTree tree, String defaultName) throws ScenarioException {
    Obj top = new Val(tree, "", tree.root())
        .object("tasks", "global", "machine", "kernel", "seed", "name", "plugins", "duration");
    long duration = ScenarioLoader.DEFAULT_DURATION_NS;
    String defPolicy = "SCHED_OTHER";
    if (top.has("global")) {
      Obj g = top.get("global").object(GLOBAL.toArray(new String[0]));
      if (g.has("duration")) {
        long secs = g.get("duration").integer(-1, 1_000_000);
        if (secs > 0) {
          duration = secs * 1_000_000_000L;
        }
      }
      defPolicy = g.text("default_policy", defPolicy);
    }
    duration = top.durationNs("duration", duration);
    MachineSpec machine = MachineBinder.bind(top.get("machine"));
    KernelSpec kernel = ScenarioLoader.kernel(top.get("kernel"));
    WorkloadSpec w = tasks(top.required("tasks"), defPolicy, machine.nrCpus());
    List<PluginRef> plugins = top.has("plugins") ? ScenarioLoader.plugins(top.get("plugins")) : List.of();
    return new Scenario(top.name("name", defaultName), top.integer("seed", ScenarioLoader.DEFAULT_SEED),
        duration, machine, kernel, w, plugins);
  }

  /** {@code workload: {rtapp: FILE}}: the file's tasks (its global duration is not used). */
  static WorkloadSpec importFile(Val pathVal, int nrCpus) throws ScenarioException {
    String rel = pathVal.text();
    Path base = Path.of(pathVal.tree().source()).toAbsolutePath().getParent();
    Path file = base == null ? Path.of(rel) : base.resolve(rel);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw pathVal.error("cannot read rt-app file " + file + ": " + e.getMessage());
    }
    LocatedTree tree = LocatedTree.parse(rel, text, false);
    if (!isRtApp(tree.root())) {
      throw pathVal.error(rel + " is not an rt-app file (no \"tasks\" map)");
    }
    Obj top = new Val(tree, "", tree.root()).object("tasks", "global");
    String defPolicy = "SCHED_OTHER";
    if (top.has("global")) {
      defPolicy = top.get("global").object(GLOBAL.toArray(new String[0])).text("default_policy", defPolicy);
    }
    return tasks(top.get("tasks"), defPolicy, nrCpus);
  }

  /** One parsed event. */
  private record Event(String kind, Val value) {}

  /** One parsed phase. */
  private record Phase(long loop, List<Event> events) {}

  private static WorkloadSpec tasks(Val tasksVal, String defPolicy, int nrCpus) throws ScenarioException {
    Obj tasks = tasksVal.object();
    Map<String, List<String>> barrierUsers = new LinkedHashMap<>();
    Set<String> mutexes = new LinkedHashSet<>();
    Map<String, List<Phase>> phasesByTask = new LinkedHashMap<>();
    Map<String, Integer> instances = new LinkedHashMap<>();
    for (String name : tasks.names()) {
      Obj t = tasks.get(name).object();
      int n = t.integer("instance", 1, 1, 100_000);
      instances.put(name, n);
      List<Phase> phases = new ArrayList<>();
      if (t.has("phases")) {
        Obj ph = t.get("phases").object();
        for (String p : ph.names()) {
          Obj po = ph.get(p).object();
          phases.add(new Phase(po.integer("loop", 1L), events(po, List.of("loop"))));
        }
        List<Event> stray = events(t, TASK_ATTRS);
        if (!stray.isEmpty()) {
          throw stray.get(0).value().error("events must go inside phases when a task has phases");
        }
      } else {
        phases.add(new Phase(1, events(t, TASK_ATTRS)));
      }
      for (Phase p : phases) {
        if (p.events().isEmpty()) {
          throw tasks.get(name).error("a phase without events");
        }
        for (Event e : p.events()) {
          if (e.kind().equals("barrier")) {
            List<String> users = barrierUsers.computeIfAbsent(e.value().name(), k -> new ArrayList<>());
            for (int i = 0; i < n; i++) {
              String id = name + "/" + i;
              if (!users.contains(id)) {
                users.add(id);
              }
            }
          } else if (e.kind().equals("lock") || e.kind().equals("unlock")) {
            mutexes.add(e.value().name());
          } else if (e.kind().equals("wait")) {
            mutexes.add(e.value().object("ref", "mutex").required("mutex").name());
          }
        }
      }
      phasesByTask.put(name, phases);
    }
    List<TaskSpec> out = new ArrayList<>();
    if (!mutexes.isEmpty()) {
      List<StepSpec> init = new ArrayList<>();
      for (String m : mutexes) {
        init.add(new StepSpec.Wake(mutexQueue(m), false));
      }
      init.add(new StepSpec.Exit());
      out.add(new TaskSpec("rt-app-init", 1, "normal", 0, 0, 0, 0, 0, "", false, true, "own", 0, init));
    }
    for (String name : tasks.names()) {
      Obj t = tasks.get(name).object();
      int n = instances.get(name);
      boolean perInstance = phasesByTask.get(name).stream().flatMap(p -> p.events().stream())
          .anyMatch(e -> e.kind().equals("barrier"));
      for (int i = 0; i < (perInstance ? n : 1); i++) {
        String self = name + "/" + i;
        List<StepSpec> program = program(t, phasesByTask.get(name), self, barrierUsers);
        out.add(task(t, perInstance ? self : name, perInstance ? 1 : n, defPolicy, nrCpus, program));
      }
    }
    return new WorkloadSpec(out);
  }

  private static List<Event> events(Obj o, List<String> attrs) throws ScenarioException {
    List<Event> out = new ArrayList<>();
    for (String key : o.names()) {
      if (attrs.contains(key)) {
        continue;
      }
      String kind = EVENTS.stream().filter(key::startsWith).findFirst().orElseThrow(() ->
          o.get(key).error("unsupported rt-app key; supported: " + String.join(", ", attrs)
              + ", and events " + String.join(", ", EVENTS)));
      out.add(new Event(kind, o.get(key)));
    }
    return out;
  }

  private static List<StepSpec> program(Obj t, List<Phase> phases, String self,
      Map<String, List<String>> barriers) throws ScenarioException {
    List<StepSpec> body = new ArrayList<>();
    for (Phase p : phases) {
      List<StepSpec> steps = new ArrayList<>();
      for (Event e : p.events()) {
        steps.addAll(steps(e, self, barriers));
      }
      if (p.loop() < 0) {
        body.add(new StepSpec.Loop(Integer.MAX_VALUE, steps));
      } else if (p.loop() == 1) {
        body.addAll(steps);
      } else if (p.loop() > 1) {
        body.add(new StepSpec.Loop((int) Math.min(p.loop(), Integer.MAX_VALUE), steps));
      }
    }
    long loop = t.integer("loop", -1L);
    long delayUs = t.integer("delay", 0, 0, Integer.MAX_VALUE);
    List<StepSpec> prog = new ArrayList<>();
    if (delayUs > 0) {
      prog.add(new StepSpec.Sleep(Dist.fixed(delayUs * 1000)));
    }
    if (loop < 0) {
      if (prog.isEmpty()) {
        return body;
      }
      prog.add(new StepSpec.Loop(Integer.MAX_VALUE, body));
      return prog;
    }
    if (loop == 0) {
      throw t.get("loop").error("expected -1 (forever) or a count >= 1");
    }
    if (loop == 1) {
      prog.addAll(body);
    } else {
      prog.add(new StepSpec.Loop((int) Math.min(loop, Integer.MAX_VALUE), body));
    }
    prog.add(new StepSpec.Exit());
    return prog;
  }

  private static List<StepSpec> steps(Event e, String self, Map<String, List<String>> barriers)
      throws ScenarioException {
    Val v = e.value();
    switch (e.kind()) {
      case "run":
      case "runtime":
        return List.of(new StepSpec.User(Dist.fixed(us(v))));
      case "sleep":
        return List.of(new StepSpec.Sleep(Dist.fixed(us(v))));
      case "timer": {
        Obj o = v.object("ref", "period", "mode");
        o.required("ref").name();
        o.choice("mode", "relative", "relative", "absolute");
        long period = o.required("period").integer(1, Integer.MAX_VALUE) * 1000;
        return List.of(new StepSpec.SleepUntil(period, null));
      }
      case "lock":
        return List.of(new StepSpec.Block(mutexQueue(v.name())));
      case "unlock":
        return List.of(new StepSpec.Wake(mutexQueue(v.name()), false));
      case "signal":
        return List.of(new StepSpec.Wake("rtapp/cond/" + v.name(), false));
      case "wait": {
        Obj o = v.object("ref", "mutex");
        String m = mutexQueue(o.required("mutex").name());
        return List.of(new StepSpec.Wake(m, false),
            new StepSpec.Block("rtapp/cond/" + o.required("ref").name()), new StepSpec.Block(m));
      }
      default: { // barrier
        String b = v.name();
        List<String> users = barriers.get(b);
        List<StepSpec> out = new ArrayList<>();
        for (String u : users) {
          if (!u.equals(self)) {
            out.add(new StepSpec.Wake("rtapp/barrier/" + b + "/" + u, false));
          }
        }
        for (int i = 0; i < users.size() - 1; i++) {
          out.add(new StepSpec.Block("rtapp/barrier/" + b + "/" + self));
        }
        return out;
      }
    }
  }

  private static long us(Val v) throws ScenarioException {
    return v.integer(0, Integer.MAX_VALUE) * 1000;
  }

  private static String mutexQueue(String m) {
    return "rtapp/mutex/" + m;
  }

  private static TaskSpec task(Obj t, String name, int count, String defPolicy, int nrCpus,
      List<StepSpec> program) throws ScenarioException {
    String pol = t.text("policy", defPolicy);
    String policy = switch (pol) {
      case "SCHED_OTHER" -> "normal";
      case "SCHED_FIFO" -> "fifo";
      case "SCHED_RR" -> "rr";
      case "SCHED_DEADLINE" -> "deadline";
      case "SCHED_BATCH" -> "batch";
      case "SCHED_IDLE" -> "idle";
      default -> throw (t.has("policy") ? t.get("policy") : t.self()).error(
          "expected SCHED_OTHER, SCHED_FIFO, SCHED_RR, SCHED_DEADLINE, SCHED_BATCH or SCHED_IDLE, got " + pol);
    };
    boolean rt = policy.equals("fifo") || policy.equals("rr");
    int nice = 0;
    int prio = 0;
    if (rt) {
      prio = t.integer("priority", 10, 1, 99);
    } else if (!policy.equals("deadline")) {
      nice = t.integer("priority", 0, -20, 19);
    }
    long runtime = 0;
    long deadline = 0;
    long period = 0;
    if (policy.equals("deadline")) {
      runtime = t.required("dl-runtime").integer(1, Integer.MAX_VALUE) * 1000;
      period = t.required("dl-period").integer(1, Integer.MAX_VALUE) * 1000;
      deadline = t.has("dl-deadline") ? t.get("dl-deadline").integer(1, Integer.MAX_VALUE) * 1000 : period;
      if (runtime > deadline || deadline > period) {
        throw t.get("dl-runtime").error("expected dl-runtime <= dl-deadline <= dl-period");
      }
    }
    String cpus = "";
    if (t.has("cpus")) {
      Val c = t.get("cpus");
      StringBuilder sb = new StringBuilder();
      if (c.node().isArray()) {
        for (Val x : c.list()) {
          sb.append(sb.length() == 0 ? "" : ",").append(x.integer(0, nrCpus - 1));
        }
      } else {
        sb.append(c.integer(0, nrCpus - 1));
      }
      cpus = CpuList.format(CpuList.parse(sb.toString(), nrCpus));
    }
    return new TaskSpec(name.replaceAll("\\s", "_"), count, policy,
        nice, prio, runtime, deadline, period, cpus, false, false, "own", 0, program);
  }
}
