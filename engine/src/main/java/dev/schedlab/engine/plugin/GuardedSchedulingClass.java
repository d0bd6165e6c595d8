package dev.schedlab.engine.plugin;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/** A plugin's scheduling class behind a guard; name and rank are read once. */
final class GuardedSchedulingClass implements SchedulingClass {
  private final String pluginId;
  private final SchedulingClass d;
  private final String name;
  private final int rank;
  private final String label;

  GuardedSchedulingClass(String pluginId, SchedulingClass delegate) {
    this.pluginId = pluginId;
    this.d = delegate;
    try {
      this.name = delegate.name();
      this.rank = delegate.rank();
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, "class " + delegate.getClass().getName() + ".name/rank", e);
    }
    this.label = "class " + name + ".";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int rank() {
    return rank;
  }

  @Override
  public boolean handles(Policy policy) {
    try {
      return d.handles(policy);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "handles", e);
    }
  }

  @Override
  public void init(MachineView machine, SchedServices services) {
    try {
      d.init(machine, services);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "init", e);
    }
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    try {
      d.enqueue(rq, p, flags);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "enqueue", e);
    }
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    try {
      return d.dequeue(rq, p, flags);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "dequeue", e);
    }
  }

  @Override
  public TaskView pickNext(RqView rq) {
    try {
      return d.pickNext(rq);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "pickNext", e);
    }
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {
    try {
      d.putPrev(rq, prev);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "putPrev", e);
    }
  }

  @Override
  public void setNext(RqView rq, TaskView next) {
    try {
      d.setNext(rq, next);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "setNext", e);
    }
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    try {
      d.tick(rq, curr);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "tick", e);
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    try {
      d.wakeupPreempt(rq, p, wakeFlags);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "wakeupPreempt", e);
    }
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    try {
      return d.selectCpu(p, prevCpu, wakerCpu, wakeFlags);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "selectCpu", e);
    }
  }

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    try {
      d.updateCurr(rq, curr, deltaExecNs);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "updateCurr", e);
    }
  }

  @Override
  public int nrQueued(RqView rq) {
    try {
      return d.nrQueued(rq);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "nrQueued", e);
    }
  }

  @Override
  public void balance(RqView rq, TaskView prev) {
    try {
      d.balance(rq, prev);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "balance", e);
    }
  }

  @Override
  public void taskWoken(RqView rq, TaskView p) {
    try {
      d.taskWoken(rq, p);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "taskWoken", e);
    }
  }

  @Override
  public void afterSwitch(RqView rq, TaskView next) {
    try {
      d.afterSwitch(rq, next);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "afterSwitch", e);
    }
  }

  @Override
  public String toString() {
    return name + " (plugin " + pluginId + ")";
  }
}
