package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One task object of an rt-app file, read as rt-app's {@code parse_task_data()} reads it: its
 * scheduling attributes (with the legacy {@code runtime}, {@code period}, {@code deadline}), CPU
 * and memory binding, task group, delay, instances, loop, and phases (a task without {@code phases}
 * is one phase). Keys that are neither properties nor events are ignored, as rt-app ignores them,
 * and noted.
 */
final class RtAppThread {
  static final List<String> PROPERTIES =
      List.of(
          "instance",
          "delay",
          "loop",
          "phases",
          "policy",
          "priority",
          "dl-runtime",
          "dl-period",
          "dl-deadline",
          "period",
          "deadline",
          "cpus",
          "nodes_membind",
          "util_min",
          "util_max",
          "taskgroup");
  private static final List<String> PHASE_PROPERTIES =
      List.of(
          "loop",
          "policy",
          "priority",
          "dl-runtime",
          "dl-period",
          "dl-deadline",
          "cpus",
          "nodes_membind",
          "util_min",
          "util_max",
          "taskgroup");

  /**
   * One phase: its loop count, events, CPU list and task group ({@code /a/b}, "/" the root); a null
   * CPU list or task group is the thread's.
   */
  record Phase(
      long loop,
      List<RtAppEvents.Event> events,
      @Nullable String cpus,
      @Nullable String taskgroup) {}

  final String key;
  final Obj obj;
  final int instances;
  final long delayUs;
  final String policy;
  final int priority;
  final long dlRuntimeUs;
  final long dlPeriodUs;
  final long dlDeadlineUs;
  final String cpus;

  /** The task's {@code taskgroup} ({@code /a/b}, "/" the root), joined at the thread's start. */
  @Nullable String taskgroup;

  final long loop;
  final List<Phase> phases = new ArrayList<>();
  private final RtAppBinder binder;

  RtAppThread(String key, Val v, RtAppGlobal global, RtAppBinder binder, List<String> notes)
      throws ScenarioException {
    this.key = key;
    this.binder = binder;
    if (!v.node().isObject()) {
      throw v.error("expected a task object");
    }
    this.obj = v.object();
    instances = (int) intOf(obj, "instance", 1, Integer.MIN_VALUE);
    if (instances < 0) {
      throw obj.get("instance")
          .error(
              "invalid num_instances value "
                  + instances
                  + "; expected 0 (a template for fork events) or more");
    }
    delayUs = intOf(obj, "delay", 0, 0);
    policy = obj.has("policy") ? policyOf(obj.get("policy")) : global.defaultPolicy();
    boolean rt = policy.equals("SCHED_FIFO") || policy.equals("SCHED_RR");
    priority = (int) intOf(obj, "priority", rt ? 10 : 0, Integer.MIN_VALUE);
    long runtime = intOf(obj, "dl-runtime", 0, 0);
    if (runtime == 0 && obj.has("runtime") && obj.get("runtime").node().isIntegralNumber()) {
      runtime = intOf(obj, "runtime", 0, 0); // legacy grammar (also a runtime event)
    }
    long period = intOf(obj, "dl-period", runtime, 0);
    if (period == 0) {
      period = intOf(obj, "period", runtime, 0);
    }
    long deadline = intOf(obj, "dl-deadline", period, 0);
    if (deadline == 0) {
      deadline = intOf(obj, "deadline", period, 0);
    }
    dlRuntimeUs = runtime;
    dlPeriodUs = period;
    dlDeadlineUs = deadline;
    checkSched(obj);
    cpus = cpusOf(obj);
    ignoredAttributes(obj, notes);
    taskgroup = taskgroupOf(obj);
    if (obj.has("phases")) {
      Val ph = obj.get("phases");
      if (!ph.node().isObject()) {
        throw ph.error("invalid type for key phases; expected an object of phases");
      }
      Obj phases = ph.object();
      for (String p : phases.names()) {
        if (!phases.get(p).node().isObject()) {
          throw phases.get(p).error("invalid type for key " + p + "; expected a phase object");
        }
        this.phases.add(phase(phases.get(p).object(), notes));
      }
      loop = intOf(obj, "loop", -1, Integer.MIN_VALUE);
      for (String k : obj.names()) {
        if (RtAppEvents.isEvent(k) && !(k.equals("runtime") && runtime > 0)) {
          notes.add(
              RtAppNotes.where(obj.get(k))
                  + ": event outside \"phases\" ignored, as"
                  + " rt-app ignores it when a task has phases");
        }
      }
      if (this.phases.isEmpty()) {
        throw ph.error("no phases; rt-app needs at least one phase with events");
      }
    } else {
      this.phases.add(phase(obj, notes));
      loop = obj.has("loop") ? 1 : -1; // the task's loop is then its only phase's
    }
    for (String k : obj.names()) {
      if (!PROPERTIES.contains(k) && !RtAppEvents.isEvent(k)) {
        notes.add(RtAppNotes.where(obj.get(k)) + ": unknown key ignored, as rt-app ignores it");
      }
    }
  }

  /** rt-app's {@code t_first}: when the thread's timers start counting (its delay after start). */
  long firstNs() {
    return delayUs * 1000;
  }

  /** The steps of a fork event of this thread. */
  List<StepSpec> fork(String target, Val where, long costNs) throws ScenarioException {
    return binder.fork(target, where, costNs);
  }

  /** The CPUs a phase runs on ({@code ""} = all): its own, else the task's. */
  String cpusOf(Phase p) {
    return p.cpus() != null ? p.cpus() : cpus;
  }

  private Phase phase(Obj o, List<String> notes) throws ScenarioException {
    long phaseLoop = intOf(o, "loop", 1, Integer.MIN_VALUE);
    List<RtAppEvents.Event> events = new ArrayList<>();
    for (String k : o.names()) {
      if (RtAppEvents.isEvent(k)) {
        events.add(new RtAppEvents.Event(k, o.get(k)));
      } else if (o != obj && !PHASE_PROPERTIES.contains(k)) {
        notes.add(RtAppNotes.where(o.get(k)) + ": unknown key ignored, as rt-app ignores it");
      }
    }
    if (events.isEmpty()) {
      throw o.self().error("no events found; rt-app: \"Task must have events or it's useless\"");
    }
    String phaseCpus = null;
    if (o != obj) {
      phaseCpus = o.has("cpus") ? cpusOf(o) : null;
      samePhaseSched(o);
      ignoredAttributes(o, notes);
    }
    return new Phase(phaseLoop, events, phaseCpus, o != obj ? taskgroupOf(o) : null);
  }

  /** A phase may repeat the task's scheduling attributes but not change them. */
  private void samePhaseSched(Obj o) throws ScenarioException {
    for (String k : List.of("policy", "priority", "dl-runtime", "dl-period", "dl-deadline")) {
      if (!o.has(k)) {
        continue;
      }
      boolean same =
          switch (k) {
            case "policy" -> policyOf(o.get(k)).equals(policy);
            case "priority" -> intOf(o, k, 0, Integer.MIN_VALUE) == priority;
            case "dl-runtime" -> intOf(o, k, 0, 0) == dlRuntimeUs;
            case "dl-period" -> intOf(o, k, 0, 0) == dlPeriodUs;
            default -> intOf(o, k, 0, 0) == dlDeadlineUs;
          };
      if (!same) {
        throw o.get(k)
            .error(
                "a phase changing "
                    + k
                    + " cannot be modelled: the model has no"
                    + " sched_setattr() of a running task (set it on the task instead)");
      }
    }
  }

  /** util_min/util_max and nodes_membind: checked as rt-app checks them, then noted. */
  private void ignoredAttributes(Obj o, List<String> notes) throws ScenarioException {
    for (String k : List.of("util_min", "util_max")) {
      if (o.has(k)) {
        long v = intOf(o, k, -1, Integer.MIN_VALUE);
        if (v > 1024) {
          throw o.get(k).error("invalid " + k + " " + v + " (> 1024)");
        }
        notes.add(
            RtAppNotes.where(o.get(k))
                + ": "
                + k
                + ": no effect (utilization clamping"
                + " acts on CPU frequency and capacity, which the model does not have)");
      }
    }
    if (o.has("nodes_membind")) {
      Val n = o.get("nodes_membind");
      if (!n.node().isArray()) {
        throw n.error("invalid type for key nodes_membind; expected an array of NUMA nodes");
      }
      int nodes = binder.nrNodes();
      for (Val x : n.list()) {
        long node = x.node().asLong();
        if (node < 0 || node >= nodes) {
          throw x.error(
              "invalid node " + node + " in nodes_membind; the machine has " + nodes + " node(s)");
        }
      }
      notes.add(
          RtAppNotes.where(n)
              + ": nodes_membind: no effect (the model has no memory"
              + " placement)");
    }
  }

  /**
   * {@code taskgroup} of a task or phase object, checked as rt-app checks it and normalized as its
   * cgroup_mkdir() walks it (repeated and trailing slashes dropped), or null when absent or empty.
   */
  private @Nullable String taskgroupOf(Obj o) throws ScenarioException {
    if (!o.has("taskgroup")) {
      return null;
    }
    Val tg = o.get("taskgroup");
    if (!tg.node().isTextual()) {
      throw tg.error("invalid type for key taskgroup; expected a string");
    }
    String name = tg.node().textValue();
    if (name.isEmpty()) {
      return null;
    }
    if (!name.startsWith("/")) {
      throw tg.error("taskgroup [" + name + "] has to start with [/]");
    }
    if (!List.of("SCHED_OTHER", "SCHED_BATCH", "SCHED_IDLE").contains(policy)) {
      throw tg.error("no taskgroup support for policy " + policy);
    }
    name = name.replaceAll("/+", "/");
    if (name.length() > 1 && name.endsWith("/")) {
      name = name.substring(0, name.length() - 1);
    }
    return name;
  }

  private void checkSched(Obj o) throws ScenarioException {
    Val at = o.has("priority") ? o.get("priority") : o.has("policy") ? o.get("policy") : o.self();
    switch (policy) {
      case "SCHED_FIFO", "SCHED_RR" -> {
        if (priority < 1 || priority > 99) {
          throw at.error(
              "priority "
                  + priority
                  + " is not valid for "
                  + policy
                  + " (1-99; the kernel refuses it with EINVAL)");
        }
      }
      case "SCHED_DEADLINE" -> {
        Val dl = o.has("dl-runtime") ? o.get("dl-runtime") : at;
        if (dlRuntimeUs <= 0 || dlRuntimeUs > dlDeadlineUs || dlDeadlineUs > dlPeriodUs) {
          throw dl.error(
              "SCHED_DEADLINE needs 0 < dl-runtime <= dl-deadline <= dl-period, got "
                  + dlRuntimeUs
                  + ", "
                  + dlDeadlineUs
                  + ", "
                  + dlPeriodUs
                  + " us (the kernel refuses"
                  + " it with EINVAL)");
        }
      }
      default -> {
        if (priority < -20 || priority > 19) {
          throw at.error("nice " + priority + " is not valid for " + policy + " (-20 to 19)");
        }
      }
    }
  }

  private String cpusOf(Obj o) throws ScenarioException {
    if (!o.has("cpus")) {
      return "";
    }
    Val c = o.get("cpus");
    if (!c.node().isArray()) {
      throw c.error("invalid type for key cpus; expected an array of CPU numbers");
    }
    BitSet set = new BitSet();
    for (Val x : c.list()) {
      long cpu = x.node().asLong();
      if (cpu < 0 || cpu >= binder.nrCpus()) {
        throw x.error(
            "invalid cpu "
                + cpu
                + " in cpus; the machine has "
                + binder.nrCpus()
                + " CPUs (set another with --set machine.preset=...)");
      }
      set.set((int) cpu);
    }
    if (set.isEmpty()) {
      throw c.error("an empty cpus list leaves the thread no CPU");
    }
    return CpuList.format(set);
  }

  static String policyOf(Val v) throws ScenarioException {
    if (!v.node().isTextual()) {
      throw v.error("invalid type for key policy; expected a string");
    }
    String p = v.node().textValue();
    if (!RtAppGlobal.POLICIES.contains(p)) {
      throw v.error(
          "invalid policy " + p + "; expected one of " + String.join(", ", RtAppGlobal.POLICIES));
    }
    return p;
  }

  /** An integer key with rt-app's type check, at least {@code min}. */
  static long intOf(Obj o, String key, long def, long min) throws ScenarioException {
    if (!o.has(key)) {
      return def;
    }
    Val v = o.get(key);
    if (!v.node().isIntegralNumber()) {
      throw v.error("invalid type for key " + key + "; expected an integer");
    }
    return v.integer(min, Integer.MAX_VALUE);
  }
}
