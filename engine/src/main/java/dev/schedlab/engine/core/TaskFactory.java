package dev.schedlab.engine.core;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.sim.Event;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * Creates the workload's tasks: those of the scenario at their start time, and later the children
 * of fork steps from a task group used as a template ({@code copy_process()} + {@code
 * wake_up_new_task()}). Pids count up from 100 in creation order.
 */
final class TaskFactory {
  private final Kernel k;
  private final ProgramCompiler compiler;
  private final Map<String, TaskSpec> templates = new HashMap<>();
  private final Map<String, Integer> forksOf = new HashMap<>();
  private int pid = 100;
  private int mm;
  private int forks;

  TaskFactory(Kernel k) {
    this.k = k;
    this.compiler = new ProgramCompiler(k, new HashMap<>());
  }

  /**
   * Creates every task of {@code ts} (none for a template of count 0), each starting at its start
   * time.
   */
  void createGroup(TaskSpec ts, SplittableRandom root) {
    templates.putIfAbsent(ts.name(), ts);
    BitSet allowed = allowedOf(ts);
    int groupMm = ts.kthread() ? -1 : mm++;
    Mm sharedMm = ts.kthread() ? null : newMm(groupMm);
    int pinned = allowed.nextSetBit(0);
    for (int i = 0; i < ts.count(); i++) {
      BitSet aff = allowed;
      if (ts.perCpu()) {
        aff = new BitSet();
        aff.set(pinned);
        pinned = allowed.nextSetBit(pinned + 1);
        if (pinned < 0) {
          pinned = allowed.nextSetBit(0);
        }
      }
      String comm = ts.count() == 1 ? ts.name() : ts.name() + "/" + i;
      boolean group = "group".equals(ts.process());
      int mmId = ts.kthread() ? -1 : group ? groupMm : (i == 0 ? groupMm : mm++);
      Mm taskMm = ts.kthread() ? null : group || i == 0 ? sharedMm : newMm(mmId);
      Task t = newTask(ts, comm, aff, mmId, taskMm, root.split());
      if (ts.startCpu() >= 0 && aff.get(ts.startCpu())) {
        t.startCpu = ts.startCpu();
        t.cpu = t.startCpu;
        t.existedBefore = ts.startNs() == 0;
      }
      t.startAsleep = ts.startAsleep();
      t.startRunning = ts.startRunning() && t.startCpu >= 0;
      t.taskGroup =
          TaskGroup.groupOf(
              k.taskGroups, k.cgroupSpecs, k.autogroup, ts, comm, k.autogroupSessions);
      k.queue.schedule(new Event(EventLoop.EV_TASK_START, -1, t), ts.startNs());
    }
  }

  /** The scenario's tasks are created: the compiler's set-up caches go (forks compile little). */
  void tasksCreated() {
    compiler.dropStepCaches();
  }

  /** A fork step of {@code parent}: the child starts at once (an event at the current time). */
  void fork(Task parent, Op op) {
    TaskSpec ts = templates.get(op.template);
    if (ts == null) {
      throw new IllegalArgumentException(parent + ": fork of unknown task group " + op.template);
    }
    String comm;
    if (op.count < 0) {
      comm = op.template; // a task of its own name (the scenario's fork step)
    } else {
      int index = op.count + forks++;
      int nth = forksOf.merge(op.template, 1, Integer::sum) - 1;
      comm = op.namePrefix + index + "-" + String.format(Locale.ROOT, "%04d", nth);
    }
    // A thread (clone(CLONE_VM)) shares its parent's mm; a process gets one of its own.
    boolean thread = op.flag && parent.mm != null && !ts.kthread();
    int mmId = ts.kthread() ? -1 : thread ? parent.mmId : mm++;
    Mm childMm = ts.kthread() ? null : thread ? parent.mm : newMm(mmId);
    Task t = newTask(ts, comm, allowedOf(ts), mmId, childMm, parent.rng.split());
    t.taskGroup = parent.taskGroup; // a child starts in its parent's cgroup
    if (t.allowed.get(parent.cpu)) {
      // sched_fork(): every child starts on the forking CPU, where select_task_rq() starts from
      t.cpu = parent.cpu;
    }
    t.forkCpu = parent.cpu;
    k.queue.schedule(new Event(EventLoop.EV_TASK_START, -1, t), k.now);
  }

  private BitSet allowedOf(TaskSpec ts) {
    BitSet allowed = CpuList.parse(ts.cpus(), k.cpus.length);
    if (allowed.isEmpty()) {
      allowed.set(0, k.cpus.length);
    }
    return allowed;
  }

  private Task newTask(
      TaskSpec ts, String comm, BitSet aff, int mmId, @Nullable Mm taskMm, SplittableRandom rng) {
    Policy policy = Policy.valueOf(ts.policy().toUpperCase(Locale.ROOT));
    SchedulingClass cls = KernelBuilder.classFor(java.util.List.of(k.classes), policy);
    String name = comm.replace(' ', '_');
    Task t =
        new Task(
            pid++,
            name,
            policy,
            ts.nice(),
            ts.rtPriority(),
            ts.dlRuntimeNs(),
            ts.dlDeadlineNs(),
            ts.dlPeriodNs() == 0 ? ts.dlDeadlineNs() : ts.dlPeriodNs(),
            aff,
            ts.kthread(),
            false,
            mmId,
            compiler.compile(ts.program(), name),
            rng);
    if (!ts.draws().isEmpty()) {
      t.draws = compiler.draws(ts.draws(), name);
    }
    t.sclass = cls;
    t.classRank = cls.rank();
    t.timerSlackNs = ts.timerSlackNs();
    t.mm = taskMm;
    k.mmCid.register(t);
    t.cpu = aff.nextSetBit(0);
    t.state = TaskState.INTERRUPTIBLE;
    t.sleepTimer = new HrTimer(k, t.cpu, null, t);
    k.liveTasks++;
    k.tasks.add(t);
    return t;
  }

  /** A new mm: {@code mm_init_cid()} sets the first scan one scan delay after creation. */
  private Mm newMm(int id) {
    long delayJiffies =
        k.costs.p(dev.schedlab.engine.params.Param.MM_CID_SCAN_DELAY) * k.hz / 1_000_000_000L;
    Mm m = new Mm(id, delayJiffies, k.cpus.length);
    k.mmCid.register(m);
    return m;
  }
}
