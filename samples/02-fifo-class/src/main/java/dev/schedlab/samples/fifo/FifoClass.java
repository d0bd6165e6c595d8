package dev.schedlab.samples.fifo;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * First in, first out: the task at the head of a CPU's queue runs until it blocks; a task that
 * wakes joins the tail. The running task stays at the head of its queue.
 *
 * <h2>Models</h2>
 *
 * SCHED_FIFO at a single priority: no time slice, no preemption between the class's own tasks, the
 * previous CPU on wakeup.
 *
 * <h2>Does not model</h2>
 *
 * priorities, RT throttling, push/pull migration.
 *
 * <h2>Kernel reference</h2>
 *
 * kernel/sched/rt.c ({@code enqueue_task_rt()} queueing at the tail, {@code task_tick_rt()} doing
 * nothing for SCHED_FIFO).
 */
final class FifoClass implements SchedulingClass {
  /** The name scenarios and traces see. */
  static final String NAME = "sample-fifo";

  private final List<ArrayDeque<TaskView>> queues = new ArrayList<>();

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
    queues.clear();
    for (int cpu = 0; cpu < machine.nrCpus(); cpu++) {
      queues.add(new ArrayDeque<>());
    }
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    // A task preempted by a higher class is not dequeued, so it keeps its place at the head.
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
  public void tick(RqView rq, TaskView curr) {}

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
}
