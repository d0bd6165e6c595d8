package dev.schedlab.engine.plugin;

import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's scheduling class behind a guard; name and rank are read once. Once its plugin is
 * ejected the engine has moved its tasks to the fallback (fair) class and left it out of the pick
 * order, so a call still in flight answers as follows: {@code pickNext} nothing (the engine picks
 * again), {@code dequeue}, {@code setNext} and {@code selectCpu} are replayed on the built-in class
 * the task was moved to, the rest do nothing.
 */
final class GuardedSchedulingClass implements SchedulingClass, PluginSlot.Releasable {
  private final PluginSlot slot;
  private SchedulingClass d;
  private final String name;
  private final int rank;
  private final String label;

  GuardedSchedulingClass(PluginSlot slot, SchedulingClass delegate) {
    this.slot = slot;
    this.d = delegate;
    try {
      this.name = delegate.name();
      this.rank = delegate.rank();
    } catch (RuntimeException | Error e) {
      throw new PluginFailure(
          slot.id(), "class " + delegate.getClass().getName() + ".name/rank", e);
    }
    this.label = "class " + name + ".";
  }

  // Dropped only once the slot is ejected; every call checks slot.ejected() before using d.
  @SuppressWarnings("NullAway")
  @Override
  public void release() {
    d = null;
  }

  PluginSlot slot() {
    return slot;
  }

  /** The class {@code p} was moved to when the plugin was ejected. */
  private SchedulingClass now(TaskView p) {
    return Objects.requireNonNull(slot.supervisor().engine()).classOf(p); // ejected: attached
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
    if (!slot.ejected()) {
      slot.enter(label + "handles");
      try {
        return d.handles(policy);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "handles", e);
      } finally {
        slot.exit();
      }
    }
    return false;
  }

  @Override
  public void init(MachineView machine, SchedServices services) {
    if (!slot.ejected()) {
      slot.enter(label + "init");
      try {
        d.init(machine, slot.services(services));
      } catch (RuntimeException | Error e) {
        slot.threw(label + "init", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    if (!slot.ejected()) {
      slot.enter(label + "enqueue");
      try {
        d.enqueue(rq, p, flags);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "enqueue", e); // ejected: the engine queued p on the fallback class
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    if (!slot.ejected()) {
      slot.enter(label + "dequeue");
      try {
        return d.dequeue(rq, p, flags);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "dequeue", e);
      } finally {
        slot.exit();
      }
    }
    return now(p).dequeue(rq, p, flags);
  }

  @Override
  public @Nullable TaskView pickNext(RqView rq) {
    if (!slot.ejected()) {
      slot.enter(label + "pickNext");
      try {
        return d.pickNext(rq);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "pickNext", e);
      } finally {
        slot.exit();
      }
    }
    return null;
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {
    if (!slot.ejected()) {
      slot.enter(label + "putPrev");
      try {
        d.putPrev(rq, prev);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "putPrev", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public void setNext(RqView rq, TaskView next) {
    if (!slot.ejected()) {
      slot.enter(label + "setNext");
      try {
        d.setNext(rq, next);
        return;
      } catch (RuntimeException | Error e) {
        slot.threw(label + "setNext", e);
      } finally {
        slot.exit();
      }
    }
    now(next).setNext(rq, next);
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    if (!slot.ejected()) {
      slot.enter(label + "tick");
      try {
        d.tick(rq, curr);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "tick", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    if (!slot.ejected()) {
      slot.enter(label + "wakeupPreempt");
      try {
        d.wakeupPreempt(rq, p, wakeFlags);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "wakeupPreempt", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    if (!slot.ejected()) {
      slot.enter(label + "selectCpu");
      try {
        return d.selectCpu(p, prevCpu, wakerCpu, wakeFlags);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "selectCpu", e);
      } finally {
        slot.exit();
      }
    }
    return now(p).selectCpu(p, prevCpu, wakerCpu, wakeFlags);
  }

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    if (!slot.ejected()) {
      slot.enter(label + "updateCurr");
      try {
        d.updateCurr(rq, curr, deltaExecNs);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "updateCurr", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public int nrQueued(RqView rq) {
    if (!slot.ejected()) {
      slot.enter(label + "nrQueued");
      try {
        return d.nrQueued(rq);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "nrQueued", e);
      } finally {
        slot.exit();
      }
    }
    return 0;
  }

  @Override
  public void balance(RqView rq, TaskView prev) {
    if (!slot.ejected()) {
      slot.enter(label + "balance");
      try {
        d.balance(rq, prev);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "balance", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public void taskWoken(RqView rq, TaskView p) {
    if (!slot.ejected()) {
      slot.enter(label + "taskWoken");
      try {
        d.taskWoken(rq, p);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "taskWoken", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public void afterSwitch(RqView rq, TaskView next) {
    if (!slot.ejected()) {
      slot.enter(label + "afterSwitch");
      try {
        d.afterSwitch(rq, next);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "afterSwitch", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public String toString() {
    return name + " (plugin " + slot.id() + ")";
  }
}
