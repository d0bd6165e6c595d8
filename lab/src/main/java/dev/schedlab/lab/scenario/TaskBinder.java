package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.workload.ToolRun;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/** Binds {@code workload: {tasks: [...]}} with the task defaults of docs/scenarios.md. */
final class TaskBinder {
  static final String[] FIELDS = {
    "name",
    "count",
    "policy",
    "nice",
    "rt_priority",
    "dl_runtime",
    "dl_deadline",
    "dl_period",
    "cpus",
    "per_cpu",
    "kthread",
    "process",
    "start",
    "program",
    "timer_slack",
    "start_cpu",
    "start_asleep",
    "start_running",
    "forked"
  };
  static final String[] POLICIES = {"normal", "batch", "idle", "fifo", "rr", "deadline", "ext"};

  private final int nrCpus;
  private final StepBinder steps;
  private final MachineSpec machine;
  private final long durationNs;
  private final long tickNs;
  private final Map<String, Map<String, Long>> toolDefaults;

  TaskBinder(
      MachineSpec machine,
      long durationNs,
      long tickNs,
      Map<String, Map<String, Long>> toolDefaults) {
    this.nrCpus = machine.nrCpus();
    this.steps = new StepBinder(nrCpus);
    this.machine = machine;
    this.durationNs = durationNs;
    this.tickNs = tickNs;
    this.toolDefaults = toolDefaults;
  }

  WorkloadSpec workload(Val w) throws ScenarioException {
    if (w.node() == null || w.node().isNull()) {
      return new WorkloadSpec(List.of());
    }
    Obj o = w.object("tasks", "samples", "tools", "rtapp", "locks");
    Map<String, LockSpec> locks = new TreeMap<>();
    if (o.has("locks")) {
      Obj l = o.get("locks").object();
      for (String n : l.names()) {
        declare(l.get(n), lock(n, l.get(n)), locks);
      }
    }
    List<TaskSpec> tasks = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<Val> taskVals = new ArrayList<>();
    if (o.has("tasks")) {
      int i = 0;
      for (Val t : o.get("tasks").list()) {
        TaskSpec spec = task(t, i++);
        taskVals.add(t);
        if (!names.add(spec.name())) {
          throw t.child("name").error("duplicate task name " + spec.name());
        }
        tasks.add(spec);
      }
      oneRunningPerCpu(tasks, taskVals);
    }
    Map<String, Integer> caps = new TreeMap<>();
    List<ToolRun> tools = new ArrayList<>();
    if (o.has("rtapp")) {
      RtAppBinder.Imported imported = RtAppBinder.importFile(o.get("rtapp"), machine);
      addAll(o.get("rtapp"), imported.workload().tasks(), tasks, names);
      for (LockSpec ls : imported.workload().locks()) {
        declare(o.get("rtapp"), ls, locks);
      }
      tools.addAll(imported.workload().tools());
      rtAppGroups = imported.cgroups();
      rtAppAt = o.get("rtapp");
    }
    if (o.has("tools")) {
      ToolBinder tb = new ToolBinder(machine, durationNs, tickNs, toolDefaults);
      Map<String, TaskSpec> kthreads = new HashMap<>();
      for (ToolBinder.Bound b : tb.bind(o.get("tools"))) {
        addAll(b.where(), b.expansion().tasks(), tasks, names);
        addKernelThreads(b.where(), b.expansion().kernelThreads(), tasks, names, kthreads);
        for (LockSpec ls : b.expansion().locks()) {
          declare(b.where(), ls, locks);
        }
        caps.putAll(b.expansion().sampleCaps());
        tools.add(b.run());
        if (b.expansion().latencyLimitNs() >= 0) {
          latencyRequests.add(b.expansion().latencyLimitNs());
        }
      }
    }
    if (o.has("samples")) {
      Obj samples = o.get("samples").object();
      for (String name : samples.names()) {
        Obj one = samples.get(name).object("max");
        caps.put(name, one.required("max").integer(1, 100_000_000));
      }
    }
    checkForks(tasks, taskVals, w);
    Set<StepSpec> checked = LockCheck.newCheckedSet();
    for (int i = 0; i < tasks.size(); i++) {
      try {
        LockCheck.check(tasks.get(i).program(), locks, checked);
      } catch (IllegalArgumentException e) {
        Val where = i < taskVals.size() ? taskVals.get(i).child("program") : w;
        throw where.error(tasks.get(i).name() + ": " + e.getMessage());
      }
    }
    return new WorkloadSpec(tasks, caps, tools, List.copyOf(locks.values()));
  }

  /** Each {@code fork} step names a {@code forked} task, which one step forks. */
  private static void checkForks(List<TaskSpec> tasks, List<Val> taskVals, Val w)
      throws ScenarioException {
    Map<String, Integer> forkable = new TreeMap<>();
    for (int i = 0; i < taskVals.size(); i++) {
      if (tasks.get(i).count() == 0) {
        forkable.put(tasks.get(i).name(), 0);
      }
    }
    for (int i = 0; i < taskVals.size(); i++) {
      List<String> named = new ArrayList<>();
      forksIn(tasks.get(i).program(), named);
      for (String child : named) {
        Val where = taskVals.get(i).child("program");
        Integer n = forkable.get(child);
        if (n == null) {
          throw where.error("fork of " + child + ": expected the name of a task with forked: true");
        }
        if (n > 0) {
          throw where.error("fork of " + child + ": forked twice (a forked task is one task)");
        }
        forkable.put(child, 1);
      }
    }
    for (Map.Entry<String, Integer> e : forkable.entrySet()) {
      if (e.getValue() == 0) {
        throw w.error("task " + e.getKey() + " is forked: true but no fork step creates it");
      }
    }
  }

  private static void forksIn(List<StepSpec> program, List<String> out) {
    for (StepSpec s : program) {
      if (s instanceof StepSpec.Fork f && f.firstIndex() < 0) {
        out.add(f.template());
      } else if (s instanceof StepSpec.Loop l) {
        for (int i = 0; i < Math.min(2, l.count()); i++) {
          forksIn(l.body(), out); // a fork in a loop of 2 or more forks twice
        }
      } else if (s instanceof StepSpec.Pick p) {
        for (List<StepSpec> choice : p.choices()) {
          forksIn(choice, out); // a choice may be drawn more than once
          forksIn(choice, out);
        }
      }
    }
  }

  /** {@code NAME: KIND} or {@code NAME: {kind: KIND, per: machine|node|cpu|process}}. */
  private static LockSpec lock(String name, Val v) throws ScenarioException {
    if (name.isEmpty() || name.chars().anyMatch(c -> Character.isWhitespace(c) || c == '.')) {
      throw v.error("lock name '" + name + "': expected a name without spaces or dots");
    }
    String[] kinds =
        java.util.Arrays.stream(LockSpec.Kind.values())
            .map(LockSpec.Kind::label)
            .toArray(String[]::new);
    String[] scopes =
        java.util.Arrays.stream(LockSpec.Scope.values())
            .map(LockSpec.Scope::label)
            .toArray(String[]::new);
    if (!v.node().isObject()) {
      String k = v.text();
      if (!java.util.List.of(kinds).contains(k)) {
        throw v.error("expected one of " + String.join(", ", kinds) + ", got " + v.shown());
      }
      return new LockSpec(name, LockSpec.Kind.valueOf(k.toUpperCase(java.util.Locale.ROOT)));
    }
    Obj o = v.object("kind", "per");
    String k = o.optionalChoice("kind", kinds);
    if (k == null) {
      throw v.error("missing field 'kind' (one of " + String.join(", ", kinds) + ")");
    }
    String per = o.choice("per", "machine", scopes);
    return new LockSpec(
        name,
        LockSpec.Kind.valueOf(k.toUpperCase(java.util.Locale.ROOT)),
        LockSpec.Scope.valueOf(per.toUpperCase(java.util.Locale.ROOT)));
  }

  /** Adds {@code l}; the same name declared twice must mean the same lock. */
  private static void declare(Val where, LockSpec l, Map<String, LockSpec> locks)
      throws ScenarioException {
    LockSpec before = locks.putIfAbsent(l.name(), l);
    if (before != null && !before.equals(l)) {
      throw where.error(
          "lock "
              + l.name()
              + " is declared twice, as "
              + before.kind().label()
              + " per "
              + before.scope().label()
              + " and as "
              + l.kind().label()
              + " per "
              + l.scope().label());
    }
  }

  /** PM QoS latency requests the tools made (cyclictest --latency), in ns. */
  final List<Long> latencyRequests = new ArrayList<>();

  /**
   * The task groups of an imported rt-app file's {@code taskgroup} keys, and where it was named.
   */
  List<CgroupSpec> rtAppGroups = List.of();

  @Nullable Val rtAppAt;

  private static void addAll(Val where, List<TaskSpec> add, List<TaskSpec> tasks, Set<String> names)
      throws ScenarioException {
    for (TaskSpec t : add) {
      if (!names.add(t.name())) {
        throw where.error("task name " + t.name() + " is already used in this scenario");
      }
      tasks.add(t);
    }
  }

  /**
   * Adds the kernel threads a tool needs after its tasks (the tasks keep their random streams); one
   * the scenario has already is shared, as the kernel has one per CPU whoever uses it.
   */
  private static void addKernelThreads(
      Val where,
      List<TaskSpec> add,
      List<TaskSpec> tasks,
      Set<String> names,
      Map<String, TaskSpec> kthreads)
      throws ScenarioException {
    for (TaskSpec t : add) {
      TaskSpec before = kthreads.putIfAbsent(t.name(), t);
      if (before == null) {
        addAll(where, List.of(t), tasks, names);
      } else if (!before.equals(t)) {
        throw where.error("kernel thread " + t.name() + " is needed twice with different settings");
      }
    }
  }

  private TaskSpec task(Val v, int index) throws ScenarioException {
    Obj t = v.object(FIELDS);
    String name = t.name("name", "task" + index);
    boolean forked = t.bool("forked", false);
    if (forked) {
      for (String f :
          new String[] {"count", "start", "start_cpu", "start_asleep", "start_running"}) {
        if (t.has(f)) {
          throw t.get(f)
              .error("does not apply to a forked task (one task, created by a fork step)");
        }
      }
    }
    // a forked task is a template of count 0: the fork step creates it
    int count = forked ? 0 : t.integer("count", 1, 1, 1_000_000);
    String policy = t.choice("policy", "normal", POLICIES);
    int nice = t.integer("nice", 0, -20, 19);
    boolean rt = policy.equals("fifo") || policy.equals("rr");
    int prio = rt ? t.required("rt_priority").integer(1, 99) : t.integer("rt_priority", 0, 0, 0);
    long runtime = 0;
    long deadline = 0;
    long period = 0;
    if (policy.equals("deadline")) {
      runtime = t.required("dl_runtime").durationNs();
      deadline = t.required("dl_deadline").durationNs();
      period = t.durationNs("dl_period", 0);
      if (runtime <= 0 || runtime > deadline) {
        throw t.get("dl_runtime")
            .error(
                "expected 0 < dl_runtime <= dl_deadline ("
                    + deadline
                    + "ns), got "
                    + runtime
                    + "ns");
      }
      if (period != 0 && deadline > period) {
        throw t.get("dl_deadline")
            .error("expected dl_deadline <= dl_period (" + period + "ns), got " + deadline + "ns");
      }
    } else {
      for (String f : new String[] {"dl_runtime", "dl_deadline", "dl_period"}) {
        if (t.has(f)) {
          throw t.get(f).error("only applies to policy deadline (policy is " + policy + ")");
        }
      }
    }
    String cpus = t.text("cpus", "");
    BitSet set;
    try {
      set = CpuList.parse(cpus, nrCpus);
    } catch (IllegalArgumentException e) {
      throw t.get("cpus").error(String.valueOf(e.getMessage()));
    }
    if (t.has("cpus") && set.isEmpty()) {
      throw t.get("cpus").error("expected at least one CPU (omit the field for all CPUs)");
    }
    boolean perCpu = t.bool("per_cpu", false);
    int available = set.isEmpty() ? nrCpus : set.cardinality();
    if (perCpu && count > available) {
      throw t.get("per_cpu")
          .error("count " + count + " exceeds the " + available + " CPUs to pin to");
    }
    boolean kthread = t.bool("kthread", false);
    String process = t.choice("process", "own", "own", "group");
    long start = t.durationNs("start", 0);
    List<StepSpec> program = steps.program(t.required("program"));
    long slack = t.has("timer_slack") ? t.get("timer_slack").durationNs() : -1;
    int startCpu = t.integer("start_cpu", -1, 0, nrCpus - 1);
    if (startCpu >= 0 && !set.isEmpty() && !set.get(startCpu)) {
      throw t.get("start_cpu")
          .error("expected a CPU of the task's cpus (" + cpus + "), got " + startCpu);
    }
    if (startCpu >= 0 && perCpu) {
      throw t.get("start_cpu").error("does not apply with per_cpu (each task starts on its CPU)");
    }
    boolean asleep = t.bool("start_asleep", false);
    if (asleep
        && (program.isEmpty()
            || !(program.get(0) instanceof StepSpec.Block
                || program.get(0) instanceof StepSpec.Sleep))) {
      throw t.get("start_asleep")
          .error(
              "expected the program to start with a block or sleep step (the task is asleep in it)");
    }
    boolean running = t.bool("start_running", false);
    if (running) {
      String why =
          startCpu < 0
              ? "expected start_cpu with it (the CPU the task is running on)"
              : count != 1
                  ? "expected count 1 (one task is current on a CPU), got " + count
                  : asleep
                      ? "does not apply with start_asleep (a task runs or sleeps)"
                      : start != 0 ? "expected start 0 (the task runs when the run begins)" : null;
      if (why != null) {
        throw t.get("start_running").error(why);
      }
    }
    return new TaskSpec(
        name,
        count,
        policy,
        nice,
        prio,
        runtime,
        deadline,
        period,
        set.isEmpty() ? "" : CpuList.format(set),
        perCpu,
        kthread,
        process,
        start,
        program,
        slack,
        startCpu,
        asleep,
        running,
        Map.of());
  }

  /** At most one task is current on a CPU when the run starts ({@code start_running}). */
  private static void oneRunningPerCpu(List<TaskSpec> tasks, List<Val> vals)
      throws ScenarioException {
    Map<Integer, String> running = new TreeMap<>();
    for (int i = 0; i < tasks.size(); i++) {
      TaskSpec ts = tasks.get(i);
      if (!ts.startRunning()) {
        continue;
      }
      String other = running.putIfAbsent(ts.startCpu(), ts.name());
      if (other != null) {
        throw vals.get(i)
            .child("start_running")
            .error(
                "CPU "
                    + ts.startCpu()
                    + " already has "
                    + other
                    + " running when the run starts (at most one task per CPU)");
      }
    }
  }
}
