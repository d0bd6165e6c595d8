package dev.schedlab.engine.core;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Compiles a task's {@link StepSpec} program into {@link Op}s: syscall-shaped steps become entry,
 * kernel part, and exit to user; loops become jumps. Wait queues and metric names are resolved
 * here, once, so running a program looks nothing up. Ops are immutable and hold no position (jumps
 * are relative), so equal steps share one op and tasks with equal programs share one compiled
 * program: a task costs its own state, not its program's length.
 */
final class ProgramCompiler {
  private final Kernel k;
  private final Map<String, WaitQueue> waitQueues;
  private final Map<String, RtTimer> timers = new HashMap<>();
  private final Map<String, BarrierState> barriers = new HashMap<>();

  /** The task being compiled (names its time series and private timers). */
  private String comm = "";

  private final Map<String, long[]> stamps = new java.util.HashMap<>();
  private final Map<String, PerCpuCache> caches = new java.util.HashMap<>();

  /** Shared ops by the step (or segment) they compile from. */
  private final Map<Object, Op> shared = new HashMap<>();

  /**
   * Compiled programs that name nothing of their task, by their ops: equal programs compile to the
   * same ops (below), so tasks with equal programs share one array.
   */
  private final Map<List<Op>, Op[]> programs = new HashMap<>();

  /** The same by program instance (the tasks of a group of count > 1 share their program). */
  private final IdentityHashMap<List<StepSpec>, Op[]> programsByInstance = new IdentityHashMap<>();

  /**
   * The ops of each step compiled so far that names nothing of its task, by step instance:
   * generated programs reuse one instance of a path in many places and tasks (a page loop, an mmap
   * attempt), so each is compiled once without hashing its contents. Steps other than kernel paths,
   * syscalls and loops are also kept by value. Jumps are relative, so a step's ops are valid
   * wherever it appears.
   */
  private final IdentityHashMap<StepSpec, Op[]> fragments = new IdentityHashMap<>();

  private final Map<StepSpec, Op[]> leaves = new HashMap<>();

  /** The same for a syscall's parts (a kernel part has no entry and exit of its own). */
  private final IdentityHashMap<StepSpec, Op[]> partFragments = new IdentityHashMap<>();

  private final Map<StepSpec, Op[]> partLeaves = new HashMap<>();

  /** The draw sequences that pick steps read, by name: the index of each in a task's draws. */
  private final Map<String, Integer> drawSlots = new HashMap<>();

  /** The fewest choices a pick step over each draw sequence has (the values must stay below). */
  private final List<Integer> drawBounds = new ArrayList<>();

  /** The program being compiled names its task (its time series, its own timers). */
  private boolean ownNames;

  ProgramCompiler(Kernel k, Map<String, WaitQueue> waitQueues) {
    this.k = k;
    this.waitQueues = waitQueues;
  }

  /** The program of task {@code taskComm}. */
  Op[] compile(List<StepSpec> steps, String taskComm) {
    Op[] known = programsByInstance.get(steps);
    if (known != null) {
      return known;
    }
    comm = taskComm;
    ownNames = false;
    List<Op> out = new ArrayList<>();
    emit(steps, out);
    if (out.isEmpty()) {
      out.add(plain(Op.EXIT));
    }
    Op[] compiled = out.toArray(new Op[0]);
    if (ownNames) {
      return compiled;
    }
    Op[] program = programs.computeIfAbsent(Arrays.asList(compiled), ops -> compiled);
    programsByInstance.put(steps, program);
    return program;
  }

  /**
   * Forgets the compiled steps by step (they speed up compiling many programs built from the same
   * paths, and hold an op array per step). Ops stay shared by value: a program compiled later gets
   * the same ops as before.
   */
  void dropStepCaches() {
    fragments.clear();
    leaves.clear();
    partFragments.clear();
    partLeaves.clear();
  }

  /**
   * Appends the ops of {@code step} that {@code compile} emits, compiling them only the first time
   * this step instance is met (unless they name the task being compiled).
   */
  private void fragment(
      IdentityHashMap<StepSpec, Op[]> byInstance,
      Map<StepSpec, Op[]> byValue,
      StepSpec step,
      List<Op> out,
      Runnable compile) {
    Op[] known = byInstance.get(step);
    if (known == null && !composite(step)) {
      known = byValue.get(step);
      if (known != null) {
        byInstance.put(step, known);
      }
    }
    if (known != null) {
      Collections.addAll(out, known);
      return;
    }
    boolean outer = ownNames;
    ownNames = false;
    int from = out.size();
    compile.run();
    if (!ownNames) {
      Op[] ops = out.subList(from, out.size()).toArray(new Op[0]);
      byInstance.put(step, ops);
      if (!composite(step)) {
        byValue.put(step, ops);
      }
    }
    ownNames |= outer;
  }

  /** The op of {@code key}: made once by {@code make}, then shared. */
  private Op op(Object key, java.util.function.Supplier<Op> make) {
    Op op = shared.get(key);
    if (op == null) {
      op = make.get();
      shared.put(key, op);
    }
    return op;
  }

  private Op plain(int code) {
    return op(code, () -> new Op(code));
  }

  private void emit(List<StepSpec> steps, List<Op> out) {
    for (StepSpec s : steps) {
      fragment(fragments, leaves, s, out, () -> emit(s, out));
    }
  }

  /** A kernel path, syscall, loop or pick: compiled once per instance, not compared by value. */
  private static boolean composite(StepSpec s) {
    return s instanceof StepSpec.Kernel
        || s instanceof StepSpec.Syscall
        || s instanceof StepSpec.Loop
        || s instanceof StepSpec.Pick;
  }

  private void emit(StepSpec s, List<Op> out) {
    if (s instanceof StepSpec.User u) {
      out.add(
          op(
              u,
              () -> {
                Op op = new Op(Op.USER);
                op.dist = u.duration();
                return op;
              }));
    } else if (s instanceof StepSpec.Kernel kern) {
      out.add(plain(Op.SYSCALL_ENTER));
      segments(kern, out);
      out.add(plain(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.Syscall sc) {
      out.add(plain(Op.SYSCALL_ENTER));
      parts(sc.parts(), out);
      out.add(plain(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.Sleep sl) {
      out.add(new Op(Op.SYSCALL_ENTER));
      out.add(sleep(sl));
      out.add(new Op(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.SleepUntil su) {
      out.add(new Op(Op.SYSCALL_ENTER));
      Op op = new Op(Op.SLEEP_UNTIL);
      op.periodNs = su.periodNs();
      op.sample = series(su.sample());
      op.irqSample = series(su.irqSample());
      op.threadSample = series(su.threadSample());
      op.retUserSample = series(su.retUserSample());
      out.add(op);
      out.add(new Op(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.Block b) {
      out.add(new Op(Op.SYSCALL_ENTER));
      out.add(block(b));
      out.add(new Op(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.Wake w) {
      out.add(new Op(Op.SYSCALL_ENTER));
      out.add(wake(w));
      out.add(new Op(Op.SYSCALL_EXIT));
    } else if (s instanceof StepSpec.Call c) {
      if (c.cpu() < 0 || c.cpu() >= k.cpus.length) {
        throw new IllegalArgumentException("call: cpu " + c.cpu() + " is not on this machine");
      }
      Op op = new Op(Op.CALL);
      op.cpu = c.cpu();
      op.costNs = c.costNs();
      op.flag = c.waitDone();
      out.add(op);
    } else if (s instanceof StepSpec.Loop l) {
      loop(l, out, body -> emit(l.body(), body));
    } else if (s instanceof StepSpec.Pick p) {
      pick(p, out);
    } else if (s instanceof StepSpec.Mark m) {
      Op op = new Op(Op.MARK);
      op.counter = k.metrics.counter("mark." + m.counter());
      op.countFromNs = m.fromNs();
      op.stamp = m.afterStamp() == null ? RUN_START : stamp(m.afterStamp());
      out.add(op);
    } else if (s instanceof StepSpec.Stamp st) {
      Op op = new Op(Op.STAMP);
      op.stamp = stamp(st.name());
      out.add(op);
    } else if (s instanceof StepSpec.Since si) {
      Op op = new Op(Op.SINCE);
      op.stamp = stamp(si.stamp());
      op.sample = series(si.sample());
      out.add(op);
    } else if (s instanceof StepSpec.Exit) {
      out.add(new Op(Op.EXIT));
    } else if (!ThreadSteps.emit(this, s, out)) {
      throw new IllegalArgumentException("unsupported step " + s);
    }
  }

  /**
   * The parts of one syscall: kernel segments, wakeups, blocking, send-buffer charges, socket
   * messages, and loops of these.
   */
  private void parts(List<StepSpec> parts, List<Op> out) {
    for (StepSpec part : parts) {
      fragment(partFragments, partLeaves, part, out, () -> part(part, out));
    }
  }

  private void part(StepSpec part, List<Op> out) {
    if (part instanceof StepSpec.Kernel kern) {
      segments(kern, out);
    } else if (part instanceof StepSpec.Wake w) {
      out.add(wake(w));
    } else if (part instanceof StepSpec.Block b) {
      out.add(block(b));
    } else if (part instanceof StepSpec.Sleep sl) {
      out.add(sleep(sl));
    } else if (part instanceof StepSpec.Charge || part instanceof StepSpec.Uncharge) {
      out.add(ThreadSteps.sendBuffer(this, part));
    } else if (part instanceof StepSpec.Message m) {
      out.add(ThreadSteps.message(this, m));
    } else if (part instanceof StepSpec.Loop l) {
      loop(l, out, body -> parts(l.body(), body));
    } else {
      throw new IllegalArgumentException(
          "a syscall's parts are kernel, wake, block, sleep, charge, uncharge, message and loops: "
              + part);
    }
  }

  /**
   * A loop: its body compiled as ops of their own ({@code body} emits them), run by a LOOP op, so a
   * program holds each loop once however many times it runs it.
   */
  private void loop(StepSpec.Loop l, List<Op> out, Consumer<List<Op>> body) {
    List<Op> ops = new ArrayList<>();
    body.accept(ops);
    out.add(
        op(
            List.of(Op.LOOP, l.count(), ops), // equal loops compile to the same ops: one op
            () -> {
              Op loop = new Op(Op.LOOP);
              loop.count = l.count();
              loop.body = ops.toArray(new Op[0]);
              loop.nesting = 1 + Op.loopNesting(loop.body);
              return loop;
            }));
  }

  /**
   * A pick: each choice compiled as a body of its own (as a loop's), run by a PICK op that reads
   * the task's draws, so tasks that drew differently still share the op and its bodies.
   */
  private void pick(StepSpec.Pick p, List<Op> out) {
    int slot = drawSlots.computeIfAbsent(p.draws(), n -> drawSlots.size());
    if (slot == drawBounds.size()) {
      drawBounds.add(p.choices().size());
    } else {
      drawBounds.set(slot, Math.min(drawBounds.get(slot), p.choices().size()));
    }
    List<List<Op>> bodies = new ArrayList<>();
    for (List<StepSpec> choice : p.choices()) {
      List<Op> ops = new ArrayList<>();
      emit(choice, ops);
      bodies.add(ops);
    }
    out.add(
        op(
            List.of(Op.PICK, slot, bodies), // equal picks compile to the same ops: one op
            () -> {
              Op op = new Op(Op.PICK);
              op.draws = slot;
              op.choices = new Op[bodies.size()][];
              int nesting = 0;
              for (int i = 0; i < bodies.size(); i++) {
                op.choices[i] = bodies.get(i).toArray(new Op[0]);
                nesting = Math.max(nesting, Op.loopNesting(op.choices[i]));
              }
              op.nesting = 1 + nesting;
              return op;
            }));
  }

  /**
   * The draws of a task ({@link dev.schedlab.engine.config.TaskSpec#draws()}) by the index its PICK
   * ops read, for a task whose program is compiled; those of no pick step are dropped.
   *
   * @throws IllegalArgumentException a value is not the index of a choice
   */
  int[][] draws(Map<String, List<Integer>> byName, String taskComm) {
    return PickDraws.bySlot(drawSlots, drawBounds, byName, taskComm);
  }

  /** A CPU mask of this machine. */
  java.util.BitSet cpuMask(String cpus) {
    return ThreadSteps.mask(cpus, k.cpus.length);
  }

  /** A time series of the task being compiled. */
  @Nullable TimeSeries times(@Nullable String key) {
    if (key == null) {
      return null;
    }
    ownNames = true;
    return k.metrics.times(comm + "/" + key);
  }

  /** A named timer, or the compiled task's own one. */
  RtTimer timer(String ref, boolean perTask) {
    ownNames |= perTask;
    return timers.computeIfAbsent(perTask ? comm + "/" + ref : ref, r -> new RtTimer());
  }

  BarrierState barrier(String name, int users) {
    BarrierState b = barriers.computeIfAbsent(name, n -> new BarrierState(n, users));
    if (b.users != users) {
      throw new IllegalArgumentException(
          "barrier " + name + ": " + users + " users, earlier " + b.users);
    }
    return b;
  }

  private void segments(StepSpec.Kernel kern, List<Op> out) {
    for (StepSpec.Segment seg : kern.segments()) {
      out.add(op(seg, () -> segment(seg)));
    }
  }

  private Op segment(StepSpec.Segment seg) {
    if (seg.cache() != null) {
      StepSpec.CacheAction c = seg.cache();
      Op op = new Op(Op.CACHE);
      op.cache =
          new Op.CacheOp(
              caches.computeIfAbsent(c.cache(), n -> new PerCpuCache(k.cpus.length)),
              c.put(),
              c.count(),
              c.batch(),
              c.high(),
              c.auto());
      op.jump = 1 + c.then(); // skips its items, one op each
      return op;
    }
    if (seg.rcu() != null) {
      Op op = new Op(Op.CALL_RCU);
      op.count = seg.rcu().callbacks();
      op.costNs = seg.rcu().costNs();
      return op;
    }
    if (seg.lock() != null) {
      Op op = new Op(seg.lock().acquire() ? Op.LOCK : Op.UNLOCK);
      op.lockClass = k.locks.cls(seg.lock().lock());
      op.lockIrqs = seg.lock().irqsOff();
      op.lockRead = seg.lock().read();
      op.lockLines = seg.lock().dataLines();
      return op;
    }
    Op op = new Op(Op.KSEG);
    op.dist = seg.duration();
    op.perCached = seg.perCached();
    op.preemptible = seg.preemptible();
    op.irqsOff = seg.irqsOff();
    op.endsWith = point(seg.endsWith());
    return op;
  }

  private Op sleep(StepSpec.Sleep sl) {
    Op op = new Op(Op.SLEEP);
    op.dist = sl.duration();
    op.sample = series(sl.sample());
    return op;
  }

  private Op block(StepSpec.Block b) {
    Op op = new Op(Op.BLOCK);
    op.waitQueue = waitQueue(b.waitQueue());
    return op;
  }

  private Op wake(StepSpec.Wake w) {
    Op op = new Op(Op.WAKE);
    op.waitQueue = waitQueue(w.waitQueue());
    op.flag = w.sync();
    return op;
  }

  private @Nullable SampleSeries series(@Nullable String name) {
    return name == null ? null : k.metrics.series(name);
  }

  /** The stamp of a mark counted from the start of the run (never written). */
  private static final long[] RUN_START = {0};

  /**
   * The slot of the time {@code from} (a stamp's name) stands for: the run's start when null; a
   * stamp not yet taken holds -1, which its readers take as 0.
   */
  long[] base(@Nullable String from) {
    return from == null ? RUN_START : stamp(from);
  }

  /** The id of task group {@code name} ("" the root). */
  int taskGroup(String name) {
    if (name.isEmpty()) {
      return 0;
    }
    for (TaskGroup g : k.taskGroups) {
      if (g.name().equals(name)) {
        return g.id();
      }
    }
    throw new IllegalArgumentException("cgroup " + name + " is not in kernel.cgroups");
  }

  /** The declared kernel lock {@code name}. */
  LockClass lockClass(String name) {
    return k.locks.cls(name);
  }

  /** The cost parameter {@code p} of the run. */
  long cost(dev.schedlab.engine.params.Param p) {
    return k.costs.p(p);
  }

  /** The named timestamp slot; -1 until first stamped. */
  private long[] stamp(String name) {
    return stamps.computeIfAbsent(name, n -> new long[] {-1});
  }

  WaitQueue waitQueue(String name) {
    return waitQueues.computeIfAbsent(name, WaitQueue::new);
  }

  private static @Nullable PreemptPoint point(@Nullable String endsWith) {
    if (endsWith == null) {
      return null;
    }
    return switch (endsWith.toLowerCase(Locale.ROOT)) {
      case "cond_resched" -> PreemptPoint.COND_RESCHED;
      case "might_resched" -> PreemptPoint.MIGHT_RESCHED;
      case "none", "" -> null;
      default ->
          throw new IllegalArgumentException(
              "ends: expected none, cond_resched or might_resched, got " + endsWith);
    };
  }

  static Dist fixed(long ns) {
    return Dist.fixed(ns);
  }
}
