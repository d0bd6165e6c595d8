package ${package};

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A scheduling class for tasks of {@code policy: ext} (the sched_ext slot, below fair): round
 * robin on each CPU's queue, a task running for {@code slice_ticks} ticks before the next one in
 * the queue gets the CPU. The task that runs stays at the head of its queue.
 *
 * <p>Models: per-CPU FIFO queues rotated at the tick; wakeups placed on the previous CPU.
 *
 * <p>Does not model: weights, wakeup preemption, load balancing between CPUs.
 *
 * <p>Kernel reference: kernel/sched/rt.c (SCHED_RR's {@code task_tick_rt()}) and
 * kernel/sched/ext.c for the class slot.
 */
final class ${className}SchedulingClass implements SchedulingClass {
  /** The option: ticks per turn. */
  static final String SLICE_TICKS = "slice_ticks";

  /** The task's ticks left in its turn, kept in its class-data slot. */
  private static final class Turn {
    int ticksLeft;
  }

  private final String name;
  private final int sliceTicks;
  private final List<ArrayDeque<TaskView>> queues = new ArrayList<>();
  private SchedServices services;

  ${className}SchedulingClass(String name, int sliceTicks) {
    this.name = name;
    this.sliceTicks = sliceTicks;
  }

  @Override
  public String name() {
    return name;
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
    this.services = services;
    queues.clear();
    for (int cpu = 0; cpu < machine.nrCpus(); cpu++) {
      queues.add(new ArrayDeque<>());
    }
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    turn(p).ticksLeft = sliceTicks;
    queues.get(rq.cpu()).addLast(p);
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    queues.get(rq.cpu()).remove(p);
    return true;
  }

  @Override
  public TaskView pickNext(RqView rq) {
    return queues.get(rq.cpu()).peekFirst();
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {}

  @Override
  public void setNext(RqView rq, TaskView next) {}

  @Override
  public void tick(RqView rq, TaskView curr) {
    Turn t = turn(curr);
    if (--t.ticksLeft > 0) {
      return;
    }
    t.ticksLeft = sliceTicks;
    ArrayDeque<TaskView> q = queues.get(rq.cpu());
    if (q.size() > 1 && q.remove(curr)) {
      q.addLast(curr);
      services.resched(rq.cpu(), ReschedReason.SLICE_EXPIRY_TICK);
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {}

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    if (prevCpu >= 0 && p.allowedOn(prevCpu)) {
      return prevCpu;
    }
    for (int cpu = 0; cpu < queues.size(); cpu++) {
      if (p.allowedOn(cpu)) {
        return cpu;
      }
    }
    return wakerCpu;
  }

  @Override
  public int nrQueued(RqView rq) {
    return queues.get(rq.cpu()).size();
  }

  private static Turn turn(TaskView p) {
    if (p.classData() instanceof Turn t) {
      return t;
    }
    Turn t = new Turn();
    p.setClassData(t);
    return t;
  }
}
