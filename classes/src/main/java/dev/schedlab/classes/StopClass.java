package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayDeque;

/**
 * The stop class: runs the per-CPU stopper above everything else.
 *
 * <p>Models: a per-CPU FIFO of {@link Policy#STOP} tasks; the head runs (and stays at the head
 * while running) until it blocks.
 *
 * <p>Does not model: the stop machine itself, migration of stopper work ({@code
 * select_task_rq_stop} keeps the task where it is).
 *
 * <p>Kernel reference: {@code kernel/sched/stop_task.c}.
 */
public final class StopClass implements SchedulingClass {
  private ArrayDeque<TaskView>[] queues;

  @Override
  public String name() {
    return "stop";
  }

  @Override
  public int rank() {
    return RANK_STOP;
  }

  @Override
  public boolean handles(Policy policy) {
    return policy == Policy.STOP;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
  public void init(MachineView machine, SchedServices services) {
    queues = new ArrayDeque[machine.nrCpus()];
    for (int i = 0; i < queues.length; i++) {
      queues[i] = new ArrayDeque<>();
    }
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    queues[rq.cpu()].addLast(p);
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    queues[rq.cpu()].remove(p);
    return true;
  }

  @Override
  public TaskView pickNext(RqView rq) {
    return queues[rq.cpu()].peekFirst();
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {}

  @Override
  public void setNext(RqView rq, TaskView next) {}

  @Override
  public void tick(RqView rq, TaskView curr) {}

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    // Like wakeup_preempt_stop(): nothing preempts a running stopper.
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    return prevCpu; // stopper threads are per-CPU
  }

  @Override
  public int nrQueued(RqView rq) {
    return queues[rq.cpu()].size();
  }
}
