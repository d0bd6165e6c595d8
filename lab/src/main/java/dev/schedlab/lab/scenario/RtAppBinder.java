package dev.schedlab.lab.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.rtapp.RtAppParams;
import dev.schedlab.lab.rtapp.RtAppPlan;
import dev.schedlab.lab.rtapp.RtAppReport;
import dev.schedlab.lab.workload.ToolParam;
import dev.schedlab.lab.workload.ToolRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs rt-app files (scheduler-tools/rt-app, doc/tutorial.txt) as rt-app with workgen runs them:
 * the dialect ({@link LocatedTree#parseRtApp}, bare {@code "suspend"} lines), the {@code global}
 * object ({@link RtAppGlobal}), every thread property ({@link RtAppThread}) and event ({@link
 * RtAppEvents}). Each thread instance becomes a task named as rt-app names it ({@code KEY-INDEX});
 * forked tasks come from templates. The result carries an rt-app report ({@link RtAppReport}): the
 * import's notes, per-thread statistics and the log files.
 */
final class RtAppBinder {
  private static final List<String> TOP = List.of("tasks", "global", "resources");
  private static final List<String> SCHEDLAB_TOP =
      List.of("machine", "kernel", "tools", "seed", "name", "plugins", "duration");
  private static final List<String> RESOURCE_TYPES =
      List.of("mutex", "signal", "wait", "broadcast", "sync", "sleep", "run", "timer");
  private static final Pattern BARE_SUSPEND =
      Pattern.compile("^(\\s*)\"(suspend[^\"]*)\"\\s*(,?)\\s*$", Pattern.MULTILINE);

  private final MachineSpec machine;
  private final Map<String, Long> params;
  private final List<String> notes = new ArrayList<>();
  private final Map<String, RtAppThread> threads = new LinkedHashMap<>();
  private final List<String> forked = new ArrayList<>();
  private int nrThreads;

  /**
   * Upper bound of the launch's phase: 20 ms, a whole number of ticks at every HZ the kernel offers
   * (100, 250, 300, 1000), so the phase against the tick is uniform whatever the HZ.
   */
  static final long LAUNCH_PHASE_NS = 20_000_000;

  private RtAppBinder(MachineSpec machine, Map<String, Long> params) {
    this.machine = machine;
    this.params = params;
  }

  /**
   * Whether {@code root} is an rt-app file: a {@code tasks}, {@code global} or {@code resources}
   * key.
   */
  static boolean isRtApp(JsonNode root) {
    return root != null && root.isObject() && TOP.stream().anyMatch(root::has);
  }

  /** Parses {@code text} in rt-app's dialect, noting the rewrites. */
  static LocatedTree parse(String source, String text, List<String> notes)
      throws ScenarioException {
    Matcher m = BARE_SUSPEND.matcher(text);
    StringBuilder sb = new StringBuilder();
    int bare = 0;
    while (m.find()) {
      bare++;
      m.appendReplacement(
          sb, Matcher.quoteReplacement(m.group(1) + "\"" + m.group(2) + "\" : \"\"" + m.group(3)));
    }
    m.appendTail(sb);
    LocatedTree tree = LocatedTree.parseRtApp(source, sb.toString());
    if (bare > 0) {
      notes.add(
          bare
              + " bare \"suspend\" line(s) completed as the Debian workgen does"
              + " (the thread suspends on its own name)");
    }
    List<String> renamed = tree.renamedKeys();
    if (!renamed.isEmpty()) {
      notes.add(
          renamed.size()
              + " repeated key(s) kept in order under workgen's numbered names"
              + " (rt-app alone keeps the last value only): "
              + String.join(", ", renamed.subList(0, Math.min(4, renamed.size())))
              + (renamed.size() > 4 ? ", ..." : ""));
    }
    return tree;
  }

  /**
   * A whole scenario from an rt-app file; {@code --set} may add machine, kernel, seed, plugins,
   * duration.
   */
  static Scenario scenario(LocatedTree tree, String defaultName, List<String> parseNotes)
      throws ScenarioException {
    Obj top = new Val(tree, "", tree.root()).object();
    MachineSpec machine = MachineBinder.bind(top.get("machine"));
    KernelSpec kernel = ScenarioLoader.kernel(top.get("kernel"));
    RtAppBinder b = new RtAppBinder(machine, Map.of());
    b.notes.addAll(parseNotes);
    Bound bound = b.bind(top, tree.source());
    long duration = ScenarioLoader.DEFAULT_DURATION_NS;
    if (bound.global().durationS() > 0) {
      duration = bound.global().durationS() * 1_000_000_000L;
    } else if (!top.has("duration")) {
      b.notes.add(
          "duration "
              + bound.global().durationS()
              + " (until the threads end): the run"
              + " stops at "
              + duration / 1_000_000_000L
              + " s unless --set duration=... says more");
    }
    duration = top.durationNs("duration", duration);
    if (duration <= 0) {
      throw top.get("duration").error("expected a duration > 0");
    }
    kernel = ScenarioLoader.withCgroups(kernel, bound.cgroups(), top.self());
    List<PluginRef> plugins =
        top.has("plugins") ? ScenarioLoader.plugins(top.get("plugins")) : List.of();
    return new Scenario(
        top.name("name", defaultName),
        top.integer("seed", ScenarioLoader.DEFAULT_SEED),
        duration,
        machine,
        kernel,
        bound.workload(b.notes),
        plugins);
  }

  /** An imported rt-app file: its workload and the task groups of its {@code taskgroup} keys. */
  record Imported(WorkloadSpec workload, List<CgroupSpec> cgroups) {}

  /** {@code workload: {rtapp: FILE}} or {@code {rtapp: {file: FILE, params: {...}}}}. */
  static Imported importFile(Val v, MachineSpec machine) throws ScenarioException {
    Val pathVal = v;
    Map<String, Long> params = new LinkedHashMap<>();
    if (v.node().isObject()) {
      Obj o = v.object("file", "params");
      pathVal = o.required("file");
      if (o.has("params")) {
        Obj p = o.get("params").object();
        for (String n : p.names()) {
          ToolParam tp =
              RtAppParams.all().stream()
                  .filter(x -> x.name().equals(n))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          p.get(n)
                              .error(
                                  "unknown rt-app parameter; expected one of "
                                      + String.join(
                                          ", ",
                                          RtAppParams.all().stream()
                                              .map(ToolParam::name)
                                              .toList())));
          params.put(
              n,
              tp.unit().equals("ns") ? p.get(n).durationNs() : p.get(n).integer(0, Long.MAX_VALUE));
        }
      }
    }
    String rel = pathVal.text();
    Path base = Path.of(pathVal.tree().source()).toAbsolutePath().getParent();
    Path file = base == null ? Path.of(rel) : base.resolve(rel);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw pathVal.error("cannot read rt-app file " + file + ": " + e.getMessage());
    }
    RtAppBinder b = new RtAppBinder(machine, params);
    LocatedTree tree = parse(rel, text, b.notes);
    if (!isRtApp(tree.root())) {
      throw pathVal.error(rel + " is not an rt-app file (no \"tasks\" object)");
    }
    Obj top = new Val(tree, "", tree.root()).object();
    Bound bound = b.bind(top, rel);
    b.notes.add("global.duration is not used: the scenario's duration rules");
    return new Imported(bound.workload(b.notes), bound.cgroups());
  }

  /** The tasks and the report of one file. */
  private record Bound(
      RtAppGlobal global,
      List<TaskSpec> tasks,
      String file,
      RtAppPlan.Builder plan,
      List<CgroupSpec> cgroups,
      List<LockSpec> locks) {
    WorkloadSpec workload(List<String> notes) {
      RtAppReport report = new RtAppReport(plan.build(notes));
      return new WorkloadSpec(
          tasks, Map.of(), List.of(new ToolRun("rt-app", "rt-app", file, report)), locks);
    }
  }

  private Bound bind(Obj top, String file) throws ScenarioException {
    for (String k : top.names()) {
      if (!TOP.contains(k) && !SCHEDLAB_TOP.contains(k)) {
        notes.add(
            RtAppNotes.where(top.get(k))
                + ": unknown top-level key ignored, as rt-app"
                + " ignores it");
      }
    }
    if (!top.has("tasks")) {
      throw top.self().error("no \"tasks\" object; rt-app: \"Error while parsing config\"");
    }
    RtAppGlobal global = RtAppGlobal.parse(top.get("global"), notes);
    resources(top.get("resources"));
    Val tasksVal = top.get("tasks");
    if (!tasksVal.node().isObject()) {
      throw tasksVal.error("invalid type for key tasks; expected an object of tasks");
    }
    Obj tasks = tasksVal.object();
    for (String key : tasks.names()) {
      RtAppThread t = new RtAppThread(key, tasks.get(key), global, this, notes);
      threads.put(key, t);
      nrThreads += t.instances;
    }
    RtAppMutexes mutexes = new RtAppMutexes(global.piEnabled());
    RtAppEvents events =
        new RtAppEvents(mutexes, global, this::param, global.log().enabled(), notes);
    for (RtAppThread t : threads.values()) {
      for (RtAppThread.Phase p : t.phases) {
        for (RtAppEvents.Event e : p.events()) {
          events.scan(e, t);
        }
      }
    }
    RtAppTasks programs =
        new RtAppTasks(
            events, notes, global.log().enabled(), param(RtAppParams.THREAD_SETUP), nrThreads);
    List<TaskSpec> specs = new ArrayList<>();
    List<StepSpec> main = new ArrayList<>();
    // rt-app is launched at an arbitrary moment of the jiffy, and its periodic timers keep that
    // phase against the tick: a first wait drawn from the main thread's own stream
    main.add(new StepSpec.Sleep(new Dist(Dist.Kind.UNIFORM, 0, LAUNCH_PHASE_NS)));
    main.add(new StepSpec.User(Dist.fixed(param(RtAppParams.MAIN_SETUP))));
    RtAppPlan.Builder plan =
        new RtAppPlan.Builder(file, global.log(), events.nsPerLoop(), global.cumulativeSlack());
    RtAppTaskGroups groups = new RtAppTaskGroups();
    for (RtAppThread t : threads.values()) {
      groups.add(t.taskgroup);
      for (RtAppThread.Phase p : t.phases) {
        groups.add(p.taskgroup());
      }
    }
    int index = 0;
    for (RtAppThread t : threads.values()) {
      for (int i = 0; i < t.instances; i++) {
        String name = t.key + "-" + index;
        specs.add(programs.task(t, name, false, plan, index++));
        main.add(clone(param(RtAppParams.FORK_COST)));
        main.add(new StepSpec.Fork(name, name, -1, true)); // pthread_create()
      }
    }
    for (RtAppThread t : threads.values()) {
      if (forked.contains(t.key)) {
        if (t.phases.stream()
            .flatMap(p -> p.events().stream())
            .anyMatch(e -> RtAppEvents.kind(e.key()).equals("barrier"))) {
          throw tasks
              .get(t.key)
              .error(
                  "a forked task cannot use a barrier: rt-app counts"
                      + " barrier users when it parses the file");
        }
        specs.add(programs.task(t, t.key, true, plan, -1));
      }
    }
    List<TaskSpec> all = new ArrayList<>();
    all.add(mainThread(main));
    all.addAll(specs);
    return new Bound(global, all, file, plan, groups.specs(), mutexes.locks());
  }

  /**
   * The legacy {@code resources} object: each resource's type is checked; they are created on use.
   */
  private void resources(Val v) throws ScenarioException {
    if (v.node() == null || v.node().isNull() || !v.node().isObject()) {
      return;
    }
    Obj r = v.object();
    for (String name : r.names()) {
      Val res = r.get(name);
      if (res.node().isObject() && res.node().has("type")) {
        String type = res.object().get("type").text();
        if (!RESOURCE_TYPES.contains(type)) {
          throw res.object()
              .get("type")
              .error(
                  "invalid type of resource "
                      + type
                      + "; expected one of "
                      + String.join(", ", RESOURCE_TYPES));
        }
      }
    }
  }

  /** The steps of a fork event: the clone cost, then the new thread. */
  List<StepSpec> fork(String target, Val where, long costNs) throws ScenarioException {
    if (!threads.containsKey(target)) {
      throw where.error(
          "fork of unknown task "
              + target
              + "; expected one of "
              + String.join(", ", threads.keySet()));
    }
    if (!forked.contains(target)) {
      forked.add(target);
    }
    return List.of(clone(costNs), new StepSpec.Fork(target, target + "-", nrThreads, true));
  }

  /** The kernel time of {@code pthread_create()} creating a thread. */
  private static StepSpec clone(long costNs) {
    return new StepSpec.Kernel(
        List.of(new StepSpec.Segment(Dist.fixed(costNs), true, false, "NONE")));
  }

  /**
   * rt-app's main thread ({@code main()}): its start-up (parsing the file, opening the logs), then
   * creates the threads one by one in the file's order, then sleeps for the run ({@code
   * sleep(duration)}, or joins the threads: neither wakes it before the end). Calibration is not
   * run: the model takes {@code ns_per_loop} as given.
   */
  private static TaskSpec mainThread(List<StepSpec> forks) {
    List<StepSpec> program = new ArrayList<>(forks);
    program.add(new StepSpec.Block("rtapp/main"));
    return new TaskSpec("rt-app", 1, "normal", 0, 0, 0, 0, 0, "", false, false, "own", 0, program);
  }

  int nrCpus() {
    return machine.nrCpus();
  }

  int nrNodes() {
    return Math.max(1, machine.sockets() * machine.numaNodesPerSocket());
  }

  private long param(ToolParam p) {
    return params.getOrDefault(p.name(), p.defaultValue());
  }
}
