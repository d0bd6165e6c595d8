package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.lab.rtapp.RtAppParams;
import dev.schedlab.lab.rtapp.RtAppPlan;
import dev.schedlab.lab.rtapp.RtAppPlan.Kind;
import dev.schedlab.lab.rtapp.RtAppPlan.TimedEvent;
import dev.schedlab.lab.workload.ToolParam;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * rt-app's events as steps (docs/workloads.md, "rt-app JSON"). A key is an event when it starts
 * with an event name, as in rt-app ({@code run1}, {@code sleep_long}); the kind is decided in the
 * order of rt-app's {@code parse_task_event_data()}. A value of the wrong type is refused as rt-app
 * refuses it ({@code Unknown or mismatch ... event type}).
 */
final class RtAppEvents {
  /** rt-app's event names (its {@code events[]} table). */
  static final List<String> NAMES =
      List.of(
          "lock",
          "unlock",
          "wait",
          "signal",
          "broad",
          "sync",
          "sleep",
          "runtime",
          "run",
          "timer",
          "suspend",
          "resume",
          "memrun",
          "mem",
          "iorun",
          "yield",
          "barrier",
          "fork",
          "sem_post",
          "sem_wait");

  /** One event of a phase: its key and value. */
  record Event(String key, Val value) {}

  private final RtAppMutexes mutexes;
  private final RtAppGlobal global;
  private final ToLongFunction<ToolParam> params;
  private final boolean stamps;

  /** Users of each barrier: the instances of every task, once per event naming it (rt-app). */
  final Map<String, Integer> barrierUsers = new HashMap<>();

  /** Timers some event sets to absolute mode (a timer resource has one mode). */
  private final Map<String, Boolean> absoluteTimers = new HashMap<>();

  private final Map<String, String> memrunShapes = new HashMap<>();
  private final java.util.Set<String> noted = new java.util.HashSet<>();
  private final List<String> notes;

  RtAppEvents(
      RtAppMutexes mutexes,
      RtAppGlobal global,
      ToLongFunction<ToolParam> params,
      boolean stamps,
      List<String> notes) {
    this.notes = notes;
    this.mutexes = mutexes;
    this.global = global;
    this.params = params;
    this.stamps = stamps;
  }

  static boolean isEvent(String key) {
    return NAMES.stream().anyMatch(key::startsWith);
  }

  /** The kind rt-app gives {@code key} (first match in its parser's order). */
  static String kind(String key) {
    for (String k :
        List.of(
            "sleep",
            "runtime",
            "run",
            "memrun",
            "mem",
            "iorun",
            "lock",
            "unlock",
            "signal",
            "broad",
            "wait",
            "sync",
            "barrier",
            "timer",
            "resume",
            "suspend",
            "yield",
            "fork",
            "sem_post",
            "sem_wait")) {
      if (key.startsWith(k)) {
        return k;
      }
    }
    throw new IllegalArgumentException(key);
  }

  /** First pass over an event: barrier users, timer modes, shared memrun buffers. */
  void scan(Event e, RtAppThread thread) throws ScenarioException {
    int instances = thread.instances;
    String kind = kind(e.key());
    Val v = e.value();
    if (kind.equals("barrier")) {
      barrierUsers.merge(string(e), instances, Integer::sum);
    } else if (kind.equals("timer") && v.node().isObject()) {
      Obj o = v.object();
      String ref = o.has("ref") ? o.get("ref").text() : "unknown";
      if (o.has("mode") && o.get("mode").text().startsWith("absolute")) {
        absoluteTimers.put(ref, true);
      }
    } else if (kind.equals("memrun") && v.node().isObject()) {
      Obj o = v.object();
      if (o.has("ref")) {
        String shape =
            o.has("type")
                ? o.get("type").text()
                    + "/"
                    + o.get("size").node()
                    + "/"
                    + o.get("stride").node()
                    + "/"
                    + o.get("pattern").node()
                : "";
        String before = memrunShapes.putIfAbsent(o.get("ref").text(), shape);
        if (before != null && !before.equals(shape)) {
          throw v.error(
              "memrun buffer '"
                  + o.get("ref").text()
                  + "' shared with mismatched"
                  + " params: events naming the same ref must agree on size, stride and pattern");
        }
      }
    }
  }

  /**
   * The steps of event {@code e} of thread {@code key}; adds a run, runtime or timer to {@code
   * timed} (the log row's shape).
   */
  List<StepSpec> steps(Event e, RtAppThread thread, List<TimedEvent> timed)
      throws ScenarioException {
    Val v = e.value();
    String kind = kind(e.key());
    List<StepSpec> out = new ArrayList<>();
    switch (kind) {
      case "run", "runtime" -> {
        long us = micros(e);
        timed.add(new TimedEvent(kind.equals("run") ? Kind.RUN : Kind.RUNTIME, us));
        stamp(out, RtAppPlan.RUN_BEGIN);
        out.add(
            kind.equals("run")
                ? new StepSpec.User(Dist.fixed(runNs(us)))
                : new StepSpec.UserWall(Dist.fixed(us * 1000)));
        stamp(out, RtAppPlan.RUN_END);
        return out;
      }
      case "sleep" -> {
        return List.of(new StepSpec.Sleep(Dist.fixed(micros(e) * 1000)));
      }
      case "timer" -> {
        return timer(e, thread, timed);
      }
      case "lock" -> {
        return mutexes.lock(string(e));
      }
      case "unlock" -> {
        return mutexes.unlock(string(e));
      }
      case "signal" -> {
        return List.of(new StepSpec.Signal(cond(string(e)), false));
      }
      case "broad" -> {
        return List.of(new StepSpec.Signal(cond(string(e)), true));
      }
      case "wait", "sync" -> {
        String ref = field(v, "ref", "unknown");
        String mutex = field(v, "mutex", "unknown");
        if (kind.equals("sync")) {
          out.add(new StepSpec.Signal(cond(ref), false));
        }
        out.addAll(mutexes.condWait(cond(ref), mutex));
        return out;
      }
      case "barrier" -> {
        String b = string(e);
        return List.of(mutexes.barrier(b, Objects.requireNonNull(barrierUsers.get(b))));
      }
      case "suspend" -> {
        String on = suspendName(e, thread);
        out.addAll(mutexes.lock(on));
        out.addAll(mutexes.condWait(cond(on), on));
        out.addAll(mutexes.unlock(on));
        return out;
      }
      case "resume" -> {
        String target = string(e);
        out.addAll(mutexes.lock(target));
        out.add(new StepSpec.Signal(cond(target), true));
        out.addAll(mutexes.unlock(target));
        return out;
      }
      case "yield" -> {
        return List.of(new StepSpec.Yield());
      }
      case "fork" -> {
        return thread.fork(string(e), v, params.applyAsLong(RtAppParams.FORK_COST));
      }
      case "sem_post" -> {
        return List.of(new StepSpec.Wake("rtapp/sem/" + string(e), false));
      }
      case "sem_wait" -> {
        return List.of(new StepSpec.Block("rtapp/sem/" + string(e)));
      }
      case "mem" -> {
        long bytes = micros(e);
        long bw = params.applyAsLong(RtAppParams.MEMSET_BYTES_PER_US);
        return List.of(new StepSpec.User(Dist.fixed(Math.max(0, bytes * 1000 / bw))));
      }
      case "iorun" -> {
        return iorun(e);
      }
      default -> { // memrun
        return List.of(new StepSpec.User(Dist.fixed(RtAppMemrun.ns(e, params))));
      }
    }
  }

  /**
   * What a suspend waits on: its string value, as rt-app 1.0 (Debian) and the Android use cases of
   * doc/examples have it (several threads suspended on one name); an empty value, as workgen fills
   * a bare {@code "suspend"}, is the thread's own task name. Upstream rt-app since 32fcddf (2025)
   * always uses the task name: a value naming something else is noted.
   */
  private String suspendName(Event e, RtAppThread thread) {
    Val v = e.value();
    String value = v.node().isTextual() ? v.node().textValue() : "";
    if (value.isEmpty() || value.equals(thread.key)) {
      return thread.key;
    }
    if (noted.add(thread.key + "/" + value)) {
      notes.add(
          RtAppNotes.where(v)
              + ": suspend on \""
              + value
              + "\" as rt-app 1.0 does;"
              + " upstream rt-app (since 2025) suspends the thread on its own name \""
              + thread.key
              + "\" instead");
    }
    return value;
  }

  private List<StepSpec> timer(Event e, RtAppThread thread, List<TimedEvent> timed)
      throws ScenarioException {
    Val v = e.value();
    String ref = field(v, "ref", "unknown");
    long period = 0;
    if (v.node().isObject() && v.node().has("period")) {
      Val p = v.object().get("period");
      if (!p.node().isIntegralNumber()) {
        throw p.error("invalid type for key period; expected an integer (µs)");
      }
      period = p.integer(0, Integer.MAX_VALUE);
    }
    timed.add(new TimedEvent(Kind.TIMER, period));
    boolean unique = ref.startsWith("unique");
    boolean relative = !absoluteTimers.getOrDefault(ref, false);
    return List.of(
        new StepSpec.Timer(
            "rtapp/timer/" + ref,
            period * 1000,
            relative,
            unique,
            thread.firstNs(),
            stamps ? RtAppPlan.SLACK : null,
            stamps ? RtAppPlan.WAKE : null,
            RtAppTasks.T_ZERO));
  }

  private List<StepSpec> iorun(Event e) throws ScenarioException {
    long bytes = micros(e);
    if (!global.ioDevice().equals("/dev/null")) {
      throw e.value()
          .error(
              "iorun to "
                  + global.ioDevice()
                  + " cannot be modelled (only writes"
                  + " to /dev/null are: a file or device needs a storage model)");
    }
    long chunks = bytes == 0 ? 0 : (bytes + global.memBufferSize() - 1) / global.memBufferSize();
    if (chunks == 0) {
      return List.of();
    }
    StepSpec write =
        new StepSpec.Kernel(
            List.of(
                new StepSpec.Segment(
                    Dist.fixed(params.applyAsLong(RtAppParams.DEVNULL_WRITE)),
                    true,
                    false,
                    "NONE")));
    return chunks == 1
        ? List.of(write)
        : List.of(new StepSpec.Loop((int) Math.min(chunks, Integer.MAX_VALUE), List.of(write)));
  }

  /**
   * CPU time of {@code run us}: rt-app runs {@code floor(us * 1000 / pLoad)} calibration loops
   * (whole seconds separately), each {@code pLoad} ns at the calibrated speed.
   */
  long runNs(long us) {
    long pLoad = nsPerLoop();
    long secs = us / 1_000_000;
    long loops = secs * (1_000_000_000L / pLoad) + (us - secs * 1_000_000) * 1000 / pLoad;
    return loops * pLoad;
  }

  long nsPerLoop() {
    return global.calibrationNs() > 0
        ? global.calibrationNs()
        : params.applyAsLong(RtAppParams.NS_PER_LOOP);
  }

  private void stamp(List<StepSpec> out, String key) {
    if (stamps) {
      out.add(new StepSpec.Clock(key));
    }
  }

  private static String cond(String name) {
    return "rtapp/cond/" + name;
  }

  /** A field of an object value, or rt-app's default when absent (or the value is no object). */
  private static String field(Val v, String name, String def) throws ScenarioException {
    if (!v.node().isObject() || !v.node().has(name)) {
      return def;
    }
    Val f = v.object().get(name);
    if (!f.node().isTextual()) {
      throw f.error("invalid type for key " + name + "; expected a string");
    }
    return f.node().textValue();
  }

  private static long micros(Event e) throws ScenarioException {
    Val v = e.value();
    if (!v.node().isIntegralNumber()) {
      throw mismatch(e, "an integer");
    }
    if (!v.node().canConvertToInt() || v.node().intValue() < 0) {
      throw v.error("expected an integer from 0 to " + Integer.MAX_VALUE + ", got " + v.shown());
    }
    return v.node().intValue();
  }

  static String string(Event e) throws ScenarioException {
    if (!e.value().node().isTextual()) {
      throw mismatch(e, "a string");
    }
    return e.value().node().textValue();
  }

  static ScenarioException mismatch(Event e, String expected) {
    return e.value()
        .error(
            "expected "
                + expected
                + " for a "
                + kind(e.key())
                + " event, got "
                + e.value().shown()
                + " (rt-app: Unknown or mismatch "
                + e.key()
                + " event type)");
  }
}
