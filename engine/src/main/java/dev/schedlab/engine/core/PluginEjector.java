package dev.schedlab.engine.core;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.engine.plugin.PluginEjection;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Carries out the ejection of a plugin, as sched_ext's {@code scx_disable_workfn()} does when a BPF
 * scheduler is disabled: every task of the plugin's classes is switched to its policy's built-in
 * class (SCHED_EXT to fair), queued there if it was queued, and every CPU with work is made to
 * reschedule; the plugin's classes leave the pick order. The plugin itself is not called: its
 * queues are simply abandoned. Its hooks, model and idle policy revert in their guards.
 *
 * <p>Models: the class switch of queued, running and sleeping tasks; a resched of each busy CPU;
 * the runqueue dump of {@code scx_dump_state()} in the trace ({@code sched_ext_dump} lines).
 *
 * <p>Does not model: the cost of the switch (it takes no simulated time) or the bypass mode
 * sched_ext enters while it disables.
 *
 * <p>Kernel reference: {@code kernel/sched/ext.c} ({@code scx_disable_workfn}, {@code
 * scx_dump_state}, {@code __setscheduler_class}).
 */
final class PluginEjector implements PluginSupervisor.Engine {
  private final Kernel k;

  PluginEjector(Kernel k) {
    this.k = k;
  }

  @Override
  public long now() {
    return k.now;
  }

  @Override
  public int nrCpus() {
    return k.cpus.length;
  }

  @Override
  public String runqueueDump() {
    StringBuilder b = new StringBuilder();
    for (Cpu c : k.cpus) {
      b.append(
          String.format(
              Locale.ROOT, "cpu%d curr=%s nr_running=%d", c.id, label(c.curr), c.nrRunning));
      if (c.curr.needResched) {
        b.append(" need_resched");
      }
      b.append(" queued=[");
      String sep = "";
      for (Task t = c.queuedHead; t != null; t = t.rqNext) {
        b.append(sep).append(label(t)).append(' ').append(state(t));
        if (!t.onCpu && t.state == TaskState.RUNNING) {
          b.append(String.format(Locale.ROOT, " waiting %.6f s", (k.now - t.runnableAt) / 1e9));
        }
        sep = ", ";
      }
      b.append("]\n");
    }
    return b.toString();
  }

  private static String label(Task t) {
    return t.traceComm() + "-" + t.tracePid() + " (" + t.sclass.name() + ")";
  }

  private static String state(Task t) {
    if (t.onCpu) {
      return "running";
    }
    return t.state == TaskState.RUNNING ? "runnable" : t.delayed ? "delayed" : "blocked";
  }

  @Override
  public void eject(PluginEjection e, List<SchedulingClass> classes) {
    if (k.trace.enabled()) {
      Cpu here = k.cpus[k.thisCpu];
      k.trace.dump(k.now, here.id, here.curr.traceComm(), here.curr.tracePid(), e.summary());
      String rq = e.runqueues(); // one line per CPU, each ending in a newline
      for (String line :
          rq.substring(0, rq.length() - (rq.endsWith("\n") ? 1 : 0)).split("\n", -1)) {
        k.trace.dump(k.now, here.id, here.curr.traceComm(), here.curr.tracePid(), line);
      }
    }
    if (classes.isEmpty()) {
      return;
    }
    List<SchedulingClass> left = new ArrayList<>(List.of(k.classes));
    left.removeIf(c -> classes.stream().anyMatch(x -> x == c));
    k.classes = left.toArray(new SchedulingClass[0]);
    for (Task t : k.tasks) {
      if (classes.stream().anyMatch(c -> c == t.sclass)) {
        move(t);
      }
    }
    for (Cpu c : k.cpus) {
      if (c.nrRunning > 0) {
        k.sched.setResched(c, ReschedBit.NR);
      }
    }
  }

  /** Switches {@code t} to its built-in class; a queued task is queued there. */
  private void move(Task t) {
    SchedulingClass to = builtinClassFor(t.policy);
    t.sclass = to;
    t.classRank = to.rank();
    t.classData = null;
    t.runnableAt = k.now;
    if (!t.onRq) {
      return;
    }
    Cpu rq = k.cpus[t.cpu];
    RunQueueList.reclassed(rq, t);
    if (t.delayed) {
      // The class kept it queued while it sleeps: finish that dequeue.
      t.onRq = false;
      t.delayed = false;
      k.sched.removeQueued(rq, t);
    } else {
      to.enqueue(rq, t, 0);
    }
  }

  /** The class of {@code policy} among those left; SCHED_EXT goes to fair, as in sched_ext. */
  private SchedulingClass builtinClassFor(Policy policy) {
    return KernelBuilder.classFor(
        List.of(k.classes), policy == Policy.EXT ? Policy.NORMAL : policy);
  }

  @Override
  public SchedulingClass classOf(TaskView p) {
    return p instanceof Task t ? t.sclass : builtinClassFor(Policy.NORMAL);
  }

  @Override
  public void mainlineTick(CpuView cpu, TaskView curr) {
    k.mmCid.tick((Cpu) cpu, (Task) curr);
  }
}
