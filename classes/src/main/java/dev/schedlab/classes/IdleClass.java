package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * The idle class: the last resort of {@code pick_next_task()}.
 *
 * <p>Models: {@code pick_next_task_idle()} returning the per-CPU idle task. The idle task is never
 * queued, so {@link #handles} is false for every policy; the engine must map idle tasks ({@link
 * TaskView#isIdleTask()}) to this class itself.
 *
 * <p>Does not model: the idle loop (engine).
 *
 * <p>Kernel reference: {@code kernel/sched/idle.c} ({@code idle_sched_class}).
 */
public final class IdleClass implements SchedulingClass {
  @Override
  public String name() {
    return "idle";
  }

  @Override
  public int rank() {
    return RANK_IDLE;
  }

  @Override
  public boolean handles(Policy policy) {
    return false;
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    throw new IllegalStateException("idle class never queues tasks: " + p.comm());
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    // dequeue_task_idle() is a kernel bug report ("bad: scheduling from the idle thread!").
    throw new IllegalStateException("idle task cannot be dequeued: " + p.comm());
  }

  @Override
  public TaskView pickNext(RqView rq) {
    return rq.idle();
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
    return prevCpu;
  }

  @Override
  public int nrQueued(RqView rq) {
    return 0;
  }
}
