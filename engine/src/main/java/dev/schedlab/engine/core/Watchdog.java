package dev.schedlab.engine.core;

import dev.schedlab.api.TaskState;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.engine.sim.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * sched_ext's watchdog in simulated time: a runnable task that has waited {@code watchdog.timeout}
 * since it became runnable (or last ran) ejects the plugin involved, and the run goes on on
 * mainline. It is armed only in runs with plugins and sits outside the model: its events are left
 * out of the digest and the event count, so a run that ejects nothing is the run without it.
 *
 * <p>Models: the stall test of {@code check_rq_for_timeouts()} on every queued, waiting task; the
 * plugin involved is the owner of the task's class (as in sched_ext), else the owner of H1 when its
 * override picked on the task's CPU while the task waited, else the owner of the preemption model
 * when the task's CPU ran one task of the same or a lower class without a switch all that time. A
 * stall no plugin is involved in (an RT hog starving a fair task) is mainline behaviour and is left
 * alone. The check runs exactly when the longest-waiting task reaches the timeout.
 *
 * <p>Does not model: sched_ext's periodic scan every timeout/2 (detection here is exact), the
 * per-scheduler {@code ops.timeout_ms}, the tick-side check that the watchdog itself runs.
 *
 * <p>Kernel reference: {@code kernel/sched/ext.c} ({@code scx_watchdog_workfn}, {@code
 * check_rq_for_timeouts}, {@code SCX_WATCHDOG_MAX_TIMEOUT}).
 */
final class Watchdog {
  private final Kernel k;
  private final long timeoutNs;
  final Event event = new Event(EventLoop.EV_WATCHDOG, -1, null);

  Watchdog(Kernel k, long timeoutNs) {
    this.k = k;
    this.timeoutNs = timeoutNs;
  }

  void start() {
    k.queue.schedule(event, k.now + (k.supervisor.checking() ? k.tickNs : timeoutNs));
  }

  /** The watchdog event: eject the plugins of stalled tasks, then re-arm. */
  void run() {
    List<Task> stalled = new ArrayList<>();
    for (Cpu c : k.cpus) {
      for (Task t = c.queuedHead; t != null; t = t.rqNext) {
        if (waiting(t) && k.now - t.runnableAt >= timeoutNs) {
          stalled.add(t);
        }
      }
    }
    for (Task t : stalled) {
      if (waiting(t) && k.now - t.runnableAt >= timeoutNs) {
        eject(t);
      }
    }
    if (k.supervisor.checking()) {
      k.checks.lostTasks();
    }
    long oldest = Long.MAX_VALUE;
    for (Cpu c : k.cpus) {
      for (Task t = c.queuedHead; t != null; t = t.rqNext) {
        if (waiting(t) && k.now - t.runnableAt < timeoutNs) {
          oldest = Math.min(oldest, t.runnableAt);
        }
      }
    }
    long next = oldest == Long.MAX_VALUE ? k.now + timeoutNs : oldest + timeoutNs;
    // --check: the lost-task scan runs every tick period as well.
    k.queue.schedule(event, k.supervisor.checking() ? Math.min(next, k.now + k.tickNs) : next);
  }

  private static boolean waiting(Task t) {
    return t.onRq && !t.onCpu && t.state == TaskState.RUNNING && !t.idleTask;
  }

  private void eject(Task t) {
    Cpu cpu = k.cpus[t.cpu];
    String what =
        String.format(
            Locale.ROOT,
            "runnable task %s (class %s) failed to run for %.3f s on cpu %d (watchdog.timeout %.3f s)",
            t,
            t.sclass.name(),
            (k.now - t.runnableAt) / 1e9,
            cpu.id,
            timeoutNs / 1e9);
    String owner = k.supervisor.ownerOf(t.sclass);
    if (owner != null) {
      k.supervisor.violation(owner, "watchdog: class " + t.sclass.name(), what);
      return;
    }
    owner = k.supervisor.ownerOf(HookPoint.H1_PICK_OVERRIDE);
    if (owner != null && cpu.overrideAt >= t.runnableAt) {
      k.supervisor.violation(owner, "watchdog: H1 pickOverride", what);
      return;
    }
    owner = k.supervisor.ownerOfModel(k.model);
    if (owner != null
        && cpu.switchedAt <= t.runnableAt
        && !cpu.curr.idleTask
        && cpu.curr.classRank <= t.classRank) {
      k.supervisor.violation(owner, "watchdog: model " + k.model.name(), what);
    }
  }
}
