package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Binds task programs: lists of one-key step maps (or the bare string {@code exit}). */
final class StepBinder {
  static final String[] STEPS = {
    "user",
    "kernel",
    "syscall",
    "sleep",
    "sleep_until",
    "block",
    "wake",
    "call",
    "loop",
    "mark",
    "stamp",
    "since",
    "lock",
    "unlock",
    "fork",
    "cgroup",
    "exit"
  };

  private static @Nullable String optionalName(Obj o, String key) throws ScenarioException {
    return o.has(key) ? o.get(key).name() : null;
  }

  /**
   * Whether {@code v} is a distribution written as a map ({@code {uniform: [a, b]}} or {@code {exp:
   * m}}).
   */
  private static boolean isDistObject(Val v) {
    return v.node().has("uniform") || v.node().has("exp");
  }

  private final int nrCpus;

  StepBinder(int nrCpus) {
    this.nrCpus = nrCpus;
  }

  List<StepSpec> program(Val list) throws ScenarioException {
    List<StepSpec> out = new ArrayList<>();
    for (Val v : list.list()) {
      out.add(step(v));
    }
    if (out.isEmpty()) {
      throw list.error("expected at least one step");
    }
    return out;
  }

  private StepSpec step(Val v) throws ScenarioException {
    if (v.node().isTextual()) {
      if (v.node().textValue().equals("exit")) {
        return new StepSpec.Exit();
      }
      throw v.error(
          "expected a one-key map such as user: 100us, or the word exit; got " + v.shown());
    }
    Obj o = v.object(STEPS);
    if (o.size() != 1) {
      throw v.error(
          "expected exactly one step kind per list item ("
              + String.join(", ", STEPS)
              + "), got "
              + String.join(", ", o.names()));
    }
    String kind = o.names().get(0);
    Val arg = o.get(kind);
    switch (kind) {
      case "user" -> {
        return new StepSpec.User(arg.dist());
      }
      case "kernel" -> {
        return kernel(arg);
      }
      case "syscall" -> {
        return new StepSpec.Syscall(syscallParts(arg));
      }
      case "sleep" -> {
        if (!arg.node().isObject() || isDistObject(arg)) {
          return new StepSpec.Sleep(arg.dist());
        }
        Obj s = arg.object("duration", "sample");
        return new StepSpec.Sleep(s.required("duration").dist(), optionalName(s, "sample"));
      }
      case "sleep_until" -> {
        Obj s = arg.object("period", "sample", "irq_sample", "thread_sample", "ret_user_sample");
        long period = s.required("period").durationNs();
        if (period <= 0) {
          throw s.get("period").error("expected a period > 0");
        }
        return new StepSpec.SleepUntil(
            period,
            optionalName(s, "sample"),
            optionalName(s, "irq_sample"),
            optionalName(s, "thread_sample"),
            optionalName(s, "ret_user_sample"));
      }
      case "block" -> {
        return new StepSpec.Block(arg.name());
      }
      case "fork" -> {
        String child = arg.name();
        return new StepSpec.Fork(child, child, -1);
      }
      case "cgroup" -> {
        String group = arg.text();
        return new StepSpec.Cgroup(group.equals("/") ? "" : group);
      }
      case "wake" -> {
        if (!arg.node().isObject()) {
          return new StepSpec.Wake(arg.name(), false);
        }
        Obj w = arg.object("waitq", "sync");
        return new StepSpec.Wake(w.required("waitq").name(), w.bool("sync", false));
      }
      case "call" -> {
        Obj c = arg.object("cpu", "cost", "wait");
        int cpu = c.required("cpu").integer(0, nrCpus - 1);
        return new StepSpec.Call(cpu, c.durationNs("cost", 0), c.bool("wait", false));
      }
      case "loop" -> {
        Obj l = arg.object("count", "body");
        int count = l.required("count").integer(1, Integer.MAX_VALUE);
        return new StepSpec.Loop(count, program(l.required("body")));
      }
      case "mark" -> {
        return new StepSpec.Mark(arg.name());
      }
      case "lock" -> {
        if (!arg.node().isObject()) {
          return StepSpec.lockStep(arg.name(), false);
        }
        Obj l = arg.object("name", "mode");
        return StepSpec.lockStep(l.required("name").name(), read(l));
      }
      case "unlock" -> {
        return StepSpec.unlockStep(arg.name());
      }
      case "stamp" -> {
        return new StepSpec.Stamp(arg.name());
      }
      case "since" -> {
        Obj o2 = arg.object("stamp", "sample");
        return new StepSpec.Since(o2.required("stamp").name(), o2.required("sample").name());
      }
      default -> { // "exit" written as a map key
        if (!arg.node().isNull()) {
          throw arg.error("exit takes no value; write the bare word exit");
        }
        return new StepSpec.Exit();
      }
    }
  }

  private StepSpec kernel(Val arg) throws ScenarioException {
    if (!arg.node().isArray()) {
      return new StepSpec.Kernel(List.of(new StepSpec.Segment(arg.dist(), true, false, "NONE")));
    }
    List<StepSpec.Segment> segs = new ArrayList<>();
    for (Val s : arg.list()) {
      if (s.node().has("lock") || s.node().has("unlock")) {
        segs.add(lockItem(s));
        continue;
      }
      if (s.node().has("cache")) {
        Obj c = s.object("cache", "op", "count", "batch", "high", "then");
        boolean put = "put".equals(c.optionalChoice("op", "get", "put"));
        if (!c.has("op")) {
          throw s.error("missing field 'op' (get or put)");
        }
        int batch = c.required("batch").integer(1, 1 << 20);
        int high = put ? c.required("high").integer(batch, 1 << 24) : 0;
        segs.add(
            StepSpec.Segment.cache(
                c.required("cache").name(),
                put,
                c.integer("count", 1, 1, batch),
                batch,
                high,
                c.required("then").integer(1, 1000)));
        continue;
      }
      Obj o = s.object("duration", "preemptible", "irqs_off", "ends");
      String ends = o.choice("ends", "none", "none", "cond_resched", "might_resched");
      segs.add(
          new StepSpec.Segment(
              o.required("duration").dist(),
              o.bool("preemptible", true),
              o.bool("irqs_off", false),
              ends.toUpperCase(java.util.Locale.ROOT)));
    }
    if (segs.isEmpty()) {
      throw arg.error("expected at least one segment");
    }
    for (int i = 0; i < segs.size(); i++) {
      StepSpec.CacheAction c = segs.get(i).cache();
      if (c != null && i + c.then() >= segs.size()) {
        throw arg.list()
            .get(i)
            .error("then: " + c.then() + " items do not follow this one in the kernel path");
      }
    }
    return new StepSpec.Kernel(segs);
  }

  /** The parts of a syscall, or of a loop inside one: kernel, wake, block, sleep and loop steps. */
  private List<StepSpec> syscallParts(Val arg) throws ScenarioException {
    List<StepSpec> parts = new ArrayList<>();
    for (Val p : arg.list()) {
      if (p.node().isObject() && p.node().has("loop")) {
        Obj l = p.object("loop").get("loop").object("count", "body");
        parts.add(
            new StepSpec.Loop(
                l.required("count").integer(1, Integer.MAX_VALUE),
                syscallParts(l.required("body"))));
        continue;
      }
      StepSpec part = step(p);
      if (!(part instanceof StepSpec.Kernel
          || part instanceof StepSpec.Wake
          || part instanceof StepSpec.Block
          || part instanceof StepSpec.Sleep)) {
        throw p.error("a syscall's parts are kernel, wake, block, sleep and loop steps");
      }
      parts.add(part);
    }
    if (parts.isEmpty()) {
      throw arg.error("expected at least one part");
    }
    return parts;
  }

  /**
   * A kernel-path item {@code {lock: NAME, irqs_off: BOOL, mode: read|write}} or {@code {unlock:
   * NAME}}.
   */
  private static StepSpec.Segment lockItem(Val s) throws ScenarioException {
    if (s.node().has("unlock")) {
      Obj o = s.object("unlock");
      return StepSpec.Segment.unlock(o.required("unlock").name());
    }
    Obj o = s.object("lock", "irqs_off", "mode");
    return StepSpec.Segment.lock(o.required("lock").name(), o.bool("irqs_off", false), read(o));
  }

  private static boolean read(Obj o) throws ScenarioException {
    return o.choice("mode", "write", "write", "read").equals("read");
  }
}
