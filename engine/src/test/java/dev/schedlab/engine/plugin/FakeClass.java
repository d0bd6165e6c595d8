package dev.schedlab.engine.plugin;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/** A built-in stand-in: a named, ranked class that queues nothing. */
record FakeClass(String name, int rank) implements SchedulingClass {
  @Override
  public boolean handles(Policy policy) {
    return false;
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {}

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    return true;
  }

  @Override
  public TaskView pickNext(RqView rq) {
    return null;
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
