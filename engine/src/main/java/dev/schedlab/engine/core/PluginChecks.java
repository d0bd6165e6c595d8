package dev.schedlab.engine.core;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Invariants checked where the engine takes a plugin's answer (cheap enough to stay on): a picked
 * task must be a runnable task of this runqueue (not one queued or running on another CPU), of the
 * picking class and allowed here; a CPU chosen for a waking task must exist and be in its affinity
 * mask; a task is never enqueued twice. A violation by a plugin goes to the {@link
 * PluginSupervisor} (ejection, or a failed run); by a built-in it is a model bug and throws. With
 * {@code --check} the costly checks run too: after each enqueue and dequeue of a plugin class its
 * count must match the engine's, and at each watchdog scan no task may be lost (runnable but
 * neither running, queued nor on a wake list).
 */
final class PluginChecks {
  private final Kernel k;
  private final PluginSupervisor sup;

  PluginChecks(Kernel k) {
    this.k = k;
    this.sup = k.supervisor;
  }

  /**
   * What class {@code c} (or H1 when null) picked on {@code cpu}: the task, or null when the answer
   * broke an invariant and its plugin was ejected (pick again).
   */
  @Nullable Task picked(Cpu cpu, @Nullable SchedulingClass c, TaskView v) {
    String bad = pickProblem(cpu, c, v);
    if (bad == null) {
      return (Task) v; // at every pick: build the hook's name and look up its owner only on failure
    }
    String hook = c == null ? "H1 pickOverride" : "class " + c.name() + ".pickNext";
    String owner = c == null ? sup.ownerOf(HookPoint.H1_PICK_OVERRIDE) : sup.ownerOf(c);
    violated(owner, hook, "picked " + bad + " on cpu " + cpu.id);
    return null;
  }

  private static @Nullable String pickProblem(Cpu cpu, @Nullable SchedulingClass c, TaskView v) {
    if (!(v instanceof Task t)) {
      return "a task the engine does not know (" + v + ")";
    }
    if (t.idleTask) {
      boolean ok = t == cpu.idle && (c == null || c.rank() == SchedulingClass.RANK_IDLE);
      return ok ? null : "idle task " + t + " of cpu " + (-1 - t.pid);
    }
    if (c != null && t.sclass != c) {
      return t + " of class " + t.sclass.name();
    }
    if (!t.onRq) {
      return t + ", which is not runnable (" + t.state + ", not queued)";
    }
    if (t.cpu != cpu.id) {
      return t + ", which is " + (t.onCpu ? "running" : "queued") + " on cpu " + t.cpu;
    }
    if (!t.allowed.get(cpu.id)) {
      return t + " outside its CPU mask " + t.allowed;
    }
    return null;
  }

  /** Whether {@code target} may take waking {@code p}; false when its plugin was just ejected. */
  boolean cpuChosen(Task p, int target) {
    if (target >= 0 && target < k.cpus.length && p.allowed.get(target)) {
      return true;
    }
    violated(
        sup.ownerOf(p.sclass),
        "class " + p.sclass.name() + ".selectCpu",
        "chose cpu "
            + target
            + " for "
            + p
            + (target < 0 || target >= k.cpus.length
                ? ", which does not exist"
                : ", outside its affinity mask " + p.allowed));
    return false;
  }

  /** {@code p} is about to be enqueued; it must not be queued already. */
  void enqueuing(Task p) {
    if (p.onRq) {
      violated(
          sup.ownerOf(p.sclass),
          "class " + p.sclass.name() + ".enqueue",
          "enqueue of " + p + ", which is already queued on cpu " + p.cpu);
    }
  }

  /** {@code --check}: the class of {@code p} counts as many tasks on {@code cpu} as the engine. */
  void counts(Cpu cpu, Task p, String op) {
    SchedulingClass c = p.sclass;
    String owner = sup.checking() ? sup.ownerOf(c) : null;
    if (owner == null) {
      return;
    }
    int engine = 0;
    for (Task t = cpu.queuedHead; t != null; t = t.rqNext) {
      engine += t.sclass == c ? 1 : 0;
    }
    int own = c.nrQueued(cpu);
    if (own != engine && sup.ownerOf(c) != null) {
      violated(
          owner,
          "class " + c.name() + "." + op,
          "after "
              + op
              + " of "
              + p
              + " it counts "
              + own
              + " queued tasks on cpu "
              + cpu.id
              + " where the engine has "
              + engine
              + " (a task lost or duplicated)");
    }
  }

  /** {@code --check}: every runnable task is running, queued or on a wake list. */
  void lostTasks() {
    Set<Task> waking = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Cpu c : k.cpus) {
      for (Csd d = c.csdHead; d != null; d = d.next) {
        if (d.wakee != null) {
          waking.add(d.wakee);
        }
      }
    }
    for (Task t : k.tasks) {
      if (t.started && t.state == TaskState.RUNNING && !t.onRq && !t.onCpu && !waking.contains(t)) {
        violated(
            sup.ownerOf(t.sclass),
            "class " + t.sclass.name(),
            "task "
                + t
                + " is lost:"
                + " runnable, but neither running, queued nor on a wake list");
      }
    }
  }

  private void violated(@Nullable String owner, String hook, String what) {
    if (owner == null) {
      throw new IllegalStateException(hook + ": " + what);
    }
    sup.violation(owner, hook, what);
  }
}
