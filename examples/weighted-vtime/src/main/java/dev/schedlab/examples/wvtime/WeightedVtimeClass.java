package dev.schedlab.examples.wvtime;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The {@code wvtime} class: {@link Policy#EXT} tasks scheduled by weighted virtual time, after
 * sched_ext's {@code scx_simple} in its default (weighted vtime) mode. Ranked {@link
 * SchedulingClass#RANK_EXT}: below fair, above idle.
 *
 * <h2>Models</h2>
 *
 * <ul>
 *   <li>Virtual time: a running task's vtime grows by {@code delta * 1024 / weight} at every {@code
 *       updateCurr} ({@code simple_stopping}: {@code (SCX_SLICE_DFL - p->scx.slice) * 100 /
 *       p->scx.weight}; sched_ext's nice-0 weight is 100, schedlab's 1024).
 *   <li>One vtime clock shared by all CPUs, {@code vtimeNow}: the largest vtime of a task that
 *       started running ({@code simple_running}). A new task starts at it ({@code simple_enable});
 *       an enqueued task's vtime is raised to at least {@code vtimeNow - slice} ({@code
 *       simple_enqueue}), so sleeping banks at most one slice of credit.
 *   <li>A fixed slice (option {@code slice}, default 20 ms = {@code SCX_SLICE_DFL}); its expiry is
 *       noticed at the tick and asks for {@link ReschedReason#SLICE_EXPIRY_TICK}. When no other
 *       task waits on the CPU the slice is refilled without a reschedule (sched_ext keeps {@code
 *       prev} running in {@code balance_scx}); the refill advances {@code vtimeNow} as a new start
 *       would, so a task running alone does not leave the clock behind.
 *   <li>No wakeup preemption ({@code wakeupPreempt} does nothing).
 *   <li>{@code select_cpu}: the previous CPU if it is idle, else the first idle allowed CPU after
 *       it, else the previous CPU ({@code scx_bpf_select_cpu_dfl} without the topology walk).
 * </ul>
 *
 * <h2>Does not model</h2>
 *
 * <ul>
 *   <li>scx_simple's single shared dispatch queue. The engine owns the runqueue a task is queued
 *       on, so each CPU keeps its own vtime-ordered queue of the tasks enqueued on it and never
 *       picks from another CPU's: an idle CPU waits for the next wakeup even when another queue
 *       holds several tasks. Stealing by global vtime needs an engine migration service (future
 *       work); the shared vtime clock already makes vtimes comparable across CPUs.
 *   <li>FIFO mode, direct dispatch to {@code SCX_DSQ_LOCAL} from {@code select_cpu}, the stats map,
 *       the cost of running BPF programs, and the topology preferences of the default idle pick
 *       (SMT, LLC, NUMA).
 *   <li>Wrap-around of the 64-bit vtime ({@code time_before}); vtimes here are plain longs.
 * </ul>
 *
 * <h2>Kernel reference</h2>
 *
 * <p>{@code tools/sched_ext/scx_simple.bpf.c} and {@code kernel/sched/ext.c} as merged for Linux
 * v6.12; {@code Documentation/scheduler/sched-ext.rst}.
 */
public final class WeightedVtimeClass implements SchedulingClass {
  /** The class name scenarios and traces use. */
  public static final String NAME = "wvtime";

  private static final Comparator<Entity> BY_VTIME =
      Comparator.comparingLong((Entity e) -> e.vtime).thenComparingInt(e -> e.task.pid());

  /** Per-task state, kept in the task's class-data slot. */
  static final class Entity {
    final TaskView task;
    long vtime;
    long sliceUsedNs;
    int queuedCpu = -1;

    Entity(TaskView task, long vtime) {
      this.task = task;
      this.vtime = vtime;
    }
  }

  private final long sliceNs;
  private final List<NavigableSet<Entity>> queues = new ArrayList<>();
  private MachineView machine;
  private SchedServices services;
  private long vtimeNow;

  /** A class with a slice of {@code sliceNs} (positive). */
  public WeightedVtimeClass(long sliceNs) {
    if (sliceNs <= 0) {
      throw new IllegalArgumentException("slice must be positive, got " + sliceNs + " ns");
    }
    this.sliceNs = sliceNs;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int rank() {
    return RANK_EXT;
  }

  @Override
  public boolean handles(Policy policy) {
    return policy == Policy.EXT;
  }

  @Override
  public void init(MachineView machine, SchedServices services) {
    this.machine = machine;
    this.services = services;
    queues.clear();
    for (int cpu = 0; cpu < machine.nrCpus(); cpu++) {
      queues.add(new TreeSet<>(BY_VTIME));
    }
    vtimeNow = 0;
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    Entity e = entity(p);
    if ((flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
      e.vtime = vtimeNow;
    }
    e.vtime = Math.max(e.vtime, vtimeNow - sliceNs);
    e.queuedCpu = rq.cpu();
    queues.get(rq.cpu()).add(e);
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    Entity e = entity(p);
    if (e.queuedCpu >= 0) {
      queues.get(e.queuedCpu).remove(e);
      e.queuedCpu = -1;
    }
    return true;
  }

  @Override
  public @Nullable TaskView pickNext(RqView rq) {
    NavigableSet<Entity> q = queues.get(rq.cpu());
    return q.isEmpty() ? null : q.first().task;
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {}

  @Override
  public void setNext(RqView rq, TaskView next) {
    Entity e = entity(next);
    e.sliceUsedNs = 0;
    vtimeNow = Math.max(vtimeNow, e.vtime);
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    Entity e = entity(curr);
    if (e.sliceUsedNs < sliceNs) {
      return;
    }
    if (queues.get(rq.cpu()).size() > 1) {
      services.resched(rq.cpu(), ReschedReason.SLICE_EXPIRY_TICK);
    } else {
      setNext(rq, curr); // a new slice: counts as starting to run again for vtimeNow
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {}

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    int n = machine.nrCpus();
    int prev = prevCpu >= 0 && prevCpu < n ? prevCpu : wakerCpu;
    if (p.allowedOn(prev) && machine.cpu(prev).isIdle()) {
      return prev;
    }
    for (int i = 1; i < n; i++) {
      int cpu = (prev + i) % n;
      if (p.allowedOn(cpu) && machine.cpu(cpu).isIdle()) {
        return cpu;
      }
    }
    if (p.allowedOn(prev)) {
      return prev;
    }
    for (int cpu = 0; cpu < n; cpu++) {
      if (p.allowedOn(cpu)) {
        return cpu;
      }
    }
    return prev;
  }

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    Entity e = entity(curr);
    boolean queued = e.queuedCpu >= 0 && queues.get(e.queuedCpu).remove(e);
    e.vtime += deltaExecNs * 1024 / Math.max(1, curr.weight());
    e.sliceUsedNs += deltaExecNs;
    if (queued) {
      queues.get(e.queuedCpu).add(e);
    }
  }

  @Override
  public int nrQueued(RqView rq) {
    return queues.get(rq.cpu()).size();
  }

  /** The shared vtime clock (for tests and metrics). */
  long vtimeNow() {
    return vtimeNow;
  }

  /** The slice length in ns. */
  public long sliceNs() {
    return sliceNs;
  }

  private Entity entity(TaskView p) {
    if (p.classData() instanceof Entity e) {
      return e;
    }
    Entity e = new Entity(p, vtimeNow);
    p.setClassData(e);
    return e;
  }
}
