package dev.schedlab.traceimport.history;

import dev.schedlab.traceimport.Warnings;
import dev.schedlab.traceimport.read.Context;
import dev.schedlab.traceimport.read.TraceEvent;
import dev.schedlab.traceimport.read.TraceEvent.WakeKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Walks a trace's events once and tells, per task, what it did (run, wake another task, block,
 * sleep, exit) and how it fared (runtime, runs, wakeups, wakeup latency, migrations, context
 * switches), and per CPU how busy it was. The same walk measures a trace and a replay's trace, so
 * the two are compared by one definition.
 *
 * <p>A wakeup from task context names its waker: the task current on the waking CPU, unless the CPU
 * is inside an interrupt handler (from irq/softirq/IPI events, or the flags column), or idle. The
 * trace is not assumed consistent: lost events and missing tracepoints are survived with a warning,
 * by believing the newest event.
 */
public final class History {
  private final Warnings warnings;
  private final long startNs;
  private final boolean hasWaking;
  private final Map<Integer, TracedTask> byPid = new HashMap<>();
  private final Map<Integer, Integer> generations = new HashMap<>();
  private final List<TracedTask> tasks = new ArrayList<>();
  private final CpuMeasures[] cpus;
  private final TracedTask[] curr;
  private final long[] currSince;
  private final int[] irqDepth;
  private final long[] irqSince;
  private final boolean[] switched;
  private final long[] idleLineNs;
  private final SyncWakes syncWakes;
  private long endNs;
  private long activeEndNs;

  private History(int nrCpus, long startNs, boolean hasWaking, Warnings warnings) {
    this.warnings = warnings;
    this.startNs = startNs;
    this.hasWaking = hasWaking;
    cpus = new CpuMeasures[nrCpus];
    for (int i = 0; i < nrCpus; i++) {
      cpus[i] = new CpuMeasures();
    }
    curr = new TracedTask[nrCpus];
    currSince = new long[nrCpus];
    irqDepth = new int[nrCpus];
    irqSince = new long[nrCpus];
    switched = new boolean[nrCpus];
    idleLineNs = new long[nrCpus];
    syncWakes = new SyncWakes(nrCpus);
    java.util.Arrays.fill(currSince, startNs);
    this.endNs = startNs;
    this.activeEndNs = startNs;
  }

  /**
   * The history of {@code events} (in time order) on {@code nrCpus} CPUs, from {@code startNs} to
   * {@code endNs}; problems go to {@code warnings}.
   */
  public static History of(
      List<TraceEvent> events, int nrCpus, long startNs, long endNs, Warnings warnings) {
    boolean waking = false;
    for (TraceEvent e : events) {
      if (e instanceof TraceEvent.Wake w && w.kind() == WakeKind.WAKING) {
        waking = true;
        break;
      }
    }
    History h = new History(nrCpus, startNs, waking, warnings);
    for (TraceEvent e : events) {
      h.accept(e);
    }
    h.finish(endNs);
    return h;
  }

  /**
   * A history fed one event at a time ({@link #accept}, then {@link #finish}), for a trace that
   * {@code hasWaking} (a wakeup is its sched_waking; a sched_wakeup of an unseen task is a new
   * task).
   */
  public static History streaming(int nrCpus, long startNs, boolean hasWaking, Warnings warnings) {
    return new History(nrCpus, startNs, hasWaking, warnings);
  }

  /** The tasks, in the order they were first seen. */
  public List<TracedTask> tasks() {
    return Collections.unmodifiableList(tasks);
  }

  /** Per-CPU measures. */
  public List<CpuMeasures> cpus() {
    return List.of(cpus);
  }

  /** The window: first event (or the given start). */
  public long startNs() {
    return startNs;
  }

  /** The window's end. */
  public long endNs() {
    return endNs;
  }

  /** When a task last stopped running (the window's end if one still runs then). */
  public long activeEndNs() {
    return activeEndNs;
  }

  /** The next event, in time order. */
  public void accept(TraceEvent e) {
    TraceEvent.Where at = e.at();
    endNs = Math.max(endNs, at.timeNs());
    if (validCpu(at.cpu())) {
      syncWakes.next(at.cpu(), e); // before the event changes the walk's state
      if (at.pid() > 0) {
        followCurrent(at);
      } else if (curr[at.cpu()] == null) {
        idleLineNs[at.cpu()] = at.timeNs();
      }
    }
    if (e instanceof TraceEvent.Switch s) {
      onSwitch(s);
    } else if (e instanceof TraceEvent.Wake w) {
      onWake(w);
    } else if (e instanceof TraceEvent.Irq i) {
      onIrq(i);
    } else if (e instanceof TraceEvent.Fork f) {
      onFork(f);
    } else if (e instanceof TraceEvent.Exit x) {
      TracedTask t = current(at);
      if (t != null && t.pid == x.pid()) {
        t.exiting = true;
      } else {
        task(x.pid(), x.comm(), at, TracedTask.Start.RUNNING).exiting = true;
      }
    } else if (e instanceof TraceEvent.Migrate m) {
      TracedTask t = task(m.pid(), m.comm(), at, TracedTask.Start.RUNNABLE);
      if (t.start == TracedTask.Start.RUNNABLE && t.lastCpu < 0 && validCpu(m.origCpu())) {
        t.startCpu = m.origCpu(); // queued there before it moved
      }
    } else if (e instanceof TraceEvent.IpiSend) {
      cpus[at.cpu()].ipisSent++;
    } else if (e instanceof TraceEvent.Lost) {
      irqDepth[at.cpu()] = 0; // a handler's exit may be among the lost events
    }
  }

  // ---------------- tasks ----------------

  /**
   * The live task with {@code pid}, first seen in {@code how} if new. A dead task's pid seen again
   * is a new task (pid reuse).
   */
  private TracedTask task(int pid, String comm, TraceEvent.Where at, TracedTask.Start how) {
    TracedTask t = byPid.get(pid);
    if (t != null && t.state != TracedTask.State.DEAD) {
      return t;
    }
    if (t != null) {
      warnings.add(
          "pid-reuse",
          at.line(),
          "pid "
              + pid
              + " is seen again after its exit without a"
              + " fork event: taken as a new task");
    }
    return create(pid, comm, at, how, how == TracedTask.Start.FORKED ? at.timeNs() : startNs);
  }

  private TracedTask create(
      int pid, String comm, TraceEvent.Where at, TracedTask.Start how, long since) {
    int gen = generations.merge(pid, 1, Integer::sum);
    TracedTask t = new TracedTask(pid, gen, comm, how, since);
    if (how != TracedTask.Start.FORKED) {
      t.startCpu = at.cpu(); // where it was seen first; a better guess replaces it below
    }
    byPid.put(pid, t);
    tasks.add(t);
    switch (how) {
      case RUNNING -> {
        t.state = TracedTask.State.RUNNING;
        t.cpu = at.cpu();
        t.lastCpu = at.cpu();
        t.since = startNs;
        t.measures.runs++; // its stretch on the CPU at the start is a run
        if (curr[at.cpu()] == null) {
          curr[at.cpu()] = t;
          currSince[at.cpu()] = startNs;
        }
      }
      case BLOCKED -> {
        t.state = TracedTask.State.BLOCKED;
        t.since = startNs;
        t.pendingBlock = new Action.Block();
        t.actions.add(t.pendingBlock);
      }
      default -> {
        t.state = TracedTask.State.RUNNABLE;
        t.since = at.timeNs();
      }
    }
    return t;
  }

  /**
   * Every event line names the task current on its CPU. One that is not the task the walk has there
   * was switched in by a {@code sched_switch} the trace lost: the task the walk had stops and the
   * named one runs from this line on (the earliest time the trace shows it there), so no stretch of
   * the CPU is given to two tasks. The first line of a CPU without a switch before it names the
   * task running there since the start.
   */
  private void followCurrent(TraceEvent.Where at) {
    int c = at.cpu();
    TracedTask cur = curr[c];
    if (cur != null && cur.pid == at.pid()) {
      return;
    }
    TracedTask t = byPid.get(at.pid());
    boolean known = t != null && t.state != TracedTask.State.DEAD;
    if (cur == null && !known && !switched[c]) {
      task(at.pid(), at.comm(), at, TracedTask.Start.RUNNING);
      return;
    }
    long now = at.timeNs();
    if (cur != null) {
      warnings.add(
          "switch-from",
          at.line(),
          "CPU "
              + c
              + " runs pid "
              + at.pid()
              + " where "
              + cur
              + " was current (lost or missing sched_switch); resynchronised from this line");
      stopRunning(cur, c, now, true);
    }
    if (t == null || !known) {
      t = task(at.pid(), at.comm(), at, TracedTask.Start.RUNNABLE);
    }
    if (cur == null && switched[c] && t.state == TracedTask.State.RUNNABLE) {
      // the CPU was idle: the switch came after the idle task's last line, and nothing else ran
      warnings.add(
          "switch-from-idle-lost",
          at.line(),
          t
              + " runs on CPU "
              + c
              + " after its idle task without a sched_switch (lost, or not traced by the"
              + " kernel); switched in at the idle task's last event");
      now = Math.max(Math.max(idleLineNs[c], currSince[c]), Math.max(t.wokenAt, t.since));
    } else {
      warnings.add(
          "switch-in-lost",
          at.line(),
          t + " runs on CPU " + c + " without being seen switched in (lost events)");
    }
    switchIn(t, c, now, cur == null);
  }

  /** The task current on the event's CPU: the last switched in, else the one the line names. */
  private @Nullable TracedTask current(TraceEvent.Where at) {
    TracedTask t = curr[at.cpu()];
    if (t != null || at.pid() <= 0) {
      return t;
    }
    t = task(at.pid(), at.comm(), at, TracedTask.Start.RUNNING);
    if (t.state == TracedTask.State.RUNNING && t.cpu == at.cpu()) {
      curr[at.cpu()] = t;
      currSince[at.cpu()] = t.since;
      return t;
    }
    return null;
  }

  // ---------------- sched_switch ----------------

  private void onSwitch(TraceEvent.Switch s) {
    TraceEvent.Where at = s.at();
    int c = at.cpu();
    long now = at.timeNs();
    switched[c] = true;
    if (irqDepth[c] > 0) {
      irqDepth[c] = 0; // no switch inside a handler: its exit was not traced
    }
    if (s.prevPid() != s.nextPid()) {
      cpus[c].contextSwitches++;
    }
    if (s.prevPid() > 0) {
      activeEndNs = Math.max(activeEndNs, now);
    }
    TracedTask was = curr[c];
    TracedTask prev = null;
    if (s.prevPid() > 0) {
      prev =
          was != null && was.pid == s.prevPid()
              ? was
              : task(s.prevPid(), s.prevComm(), at, TracedTask.Start.RUNNING);
      prev.comm = s.prevComm();
      prev.sawPrio(s.prevPrio());
    }
    if (was != null && was != prev) {
      warnings.add(
          "switch-from",
          at.line(),
          "sched_switch from pid "
              + s.prevPid()
              + " on CPU "
              + c
              + " where "
              + was
              + " was current (lost or missing events); resynchronised");
      stopRunning(was, c, now, true);
    }
    if (prev != null) {
      if (prev.state == TracedTask.State.RUNNING && prev.cpu != c) {
        warnings.add(
            "switch-elsewhere",
            at.line(),
            prev
                + " switched out of CPU "
                + c
                + " while running on CPU "
                + prev.cpu
                + "; resynchronised");
        stopRunning(prev, prev.cpu, now, true);
        prev.state = TracedTask.State.RUNNING;
        prev.cpu = c;
        prev.since = now;
      } else if (prev.state != TracedTask.State.RUNNING) {
        // its switch-in was lost: it ran since the last switch seen on this CPU
        warnings.add(
            "switch-in-lost",
            at.line(),
            prev + " switched out of CPU " + c + " without being seen switched in (lost events)");
        prev.state = TracedTask.State.RUNNING;
        prev.cpu = c;
        prev.since = Math.max(currSince[c], startNs);
      }
      switchOut(prev, s, c, now);
    }
    curr[c] = null;
    currSince[c] = now;
    if (s.nextPid() > 0) {
      TracedTask next = task(s.nextPid(), s.nextComm(), at, TracedTask.Start.RUNNABLE);
      next.comm = s.nextComm();
      next.sawPrio(s.nextPrio());
      switchIn(next, c, now, s.prevPid() == 0);
    }
  }

  private void switchOut(TracedTask t, TraceEvent.Switch s, int c, long now) {
    stopRunning(t, c, now, false);
    if (s.prevDead() || (t.exiting && !s.prevRunnable())) {
      t.closeRun();
      t.actions.add(new Action.Exit());
      t.state = TracedTask.State.DEAD;
      t.measures.voluntarySwitches++;
    } else if (s.prevRunnable()) {
      t.state = TracedTask.State.RUNNABLE;
      t.measures.involuntarySwitches++;
    } else {
      t.closeRun();
      t.state = TracedTask.State.BLOCKED;
      t.since = now;
      t.pendingBlock = new Action.Block(s.prevState().startsWith("D"));
      t.actions.add(t.pendingBlock);
      t.measures.voluntarySwitches++;
    }
  }

  /**
   * Ends {@code t}'s stretch on CPU {@code c} at {@code now}: its time goes to the task and CPU.
   */
  private void stopRunning(TracedTask t, int c, long now, boolean runnable) {
    if (t.state == TracedTask.State.RUNNING) {
      long ran = Math.max(0, now - t.since);
      t.runOnCpu += ran;
      t.measures.runtimeNs += ran;
      cpus[t.cpu >= 0 ? t.cpu : c].busyNs += ran;
      if (runnable) {
        t.state = TracedTask.State.RUNNABLE;
      }
    }
    if (curr[c] == t) {
      curr[c] = null;
    }
  }

  private void switchIn(TracedTask t, int c, long now, boolean fromIdle) {
    if (t.state == TracedTask.State.RUNNING && t.cpu != c) {
      warnings.add(
          "switch-in-elsewhere",
          0,
          t
              + " switched in on CPU "
              + c
              + " while running on"
              + " CPU "
              + t.cpu
              + " (lost events); resynchronised");
      stopRunning(t, t.cpu, now, true);
    }
    if (t.state == TracedTask.State.BLOCKED) {
      // its wakeup was not traced: it ends now, from no known waker
      wakeUpBlocked(t, null, now, -1);
    }
    t.state = TracedTask.State.RUNNING;
    t.cpu = c;
    t.since = now;
    t.measures.runs++;
    t.runSwitchIns++;
    if (fromIdle) {
      t.runFromIdle++;
    }
    if (t.wokenRemotely) {
      t.runQueuedWakeups++;
      t.wokenRemotely = false;
    }
    if (t.lastCpu >= 0 && t.lastCpu != c) {
      t.measures.migrations++;
    }
    t.lastCpu = c;
    if (t.wokenAt >= 0) {
      t.measures.latency(now - t.wokenAt);
      t.wokenAt = -1;
    }
    curr[c] = t;
    currSince[c] = now;
  }

  // ---------------- wakeups ----------------

  private void onWake(TraceEvent.Wake w) {
    TraceEvent.Where at = w.at();
    long now = at.timeNs();
    if (w.kind() == WakeKind.WAKEUP_NEW) {
      TracedTask t = byPid.get(w.pid());
      if (t == null || t.state == TracedTask.State.DEAD) {
        t = create(w.pid(), w.comm(), at, TracedTask.Start.FORKED, now); // fork not traced
      }
      t.sawPrio(w.prio());
      return;
    }
    if (w.kind() == WakeKind.WAKEUP && hasWaking) {
      if (!byPid.containsKey(w.pid())) {
        // first seen runnable: a new task (schedlab's own traces show one this way), or one
        // whose sched_waking came before the trace started
        create(w.pid(), w.comm(), at, TracedTask.Start.FORKED, now).sawPrio(w.prio());
      }
      return; // otherwise the sched_waking before it was the wakeup
    }
    TracedTask t = byPid.get(w.pid());
    if (t == null || t.state == TracedTask.State.DEAD) {
      t = task(w.pid(), w.comm(), at, TracedTask.Start.BLOCKED);
      if (t.start == TracedTask.Start.BLOCKED && validCpu(w.targetCpu())) {
        // sched_waking's target_cpu is task_cpu(p) before select_task_rq(): where it last ran
        // (sched_wakeup's is the CPU chosen, the best guess left without sched_waking)
        t.startCpu = w.targetCpu();
      }
    }
    t.sawPrio(w.prio());
    if (t.state == TracedTask.State.BLOCKED) {
      wakeUpBlocked(t, waker(at, t), now, w.targetCpu());
    } else if (t.wokenAt < 0) {
      // on its runqueue, yet woken: it had set a sleeping state and not switched out yet (still
      // running, or preempted inside that window); try_to_wake_up() checks the state before
      // tracing sched_waking, then ttwu_runnable() cancels the sleep (kernel/sched/core.c)
      wakeUpInWindow(t, waker(at, t), now);
    } // else woken already and not run since: a repeated event (lost events around it)
  }

  /**
   * A wakeup of {@code t} in its sleep window: it is a wakeup (it is counted as one), and with a
   * task as waker it keeps its causality as a block of {@code t} there and a wake step of the
   * waker: in the replay the block passes at once if the wake came first, as the sleep was
   * cancelled here, or waits for it.
   */
  private void wakeUpInWindow(TracedTask t, @Nullable TracedTask waker, long now) {
    t.measures.wakeups++;
    t.measures.wakeupsRunning++;
    if (waker == null) {
      return; // an interrupt cancelled the sleep: nothing of the program waits for it
    }
    t.measures.wakeupsByTask++;
    chargeSoFar(t, now);
    t.closeRun();
    Action.Block b = new Action.Block();
    t.actions.add(b);
    b.woken(Action.Block.End.BY_TASK, 0);
    chargeSoFar(waker, now);
    waker.closeRun();
    waker.actions.add(new Action.Wake(t, false, false, false));
    syncWakes.woke(waker.cpu, waker);
  }

  /** The time {@code t} has been on its CPU so far goes to its stretch (it goes on running). */
  private void chargeSoFar(TracedTask t, long now) {
    if (t.state == TracedTask.State.RUNNING) {
      long ran = Math.max(0, now - t.since);
      t.runOnCpu += ran;
      t.measures.runtimeNs += ran;
      cpus[t.cpu].busyNs += ran;
      t.since = now;
    }
  }

  private boolean validCpu(int c) {
    return c >= 0 && c < curr.length;
  }

  /** The task that woke from {@code at}, or null for an interrupt, the idle task or itself. */
  private @Nullable TracedTask waker(TraceEvent.Where at, TracedTask wakee) {
    int c = at.cpu();
    if (at.context() != Context.TASK || irqDepth[c] > 0 || at.pid() <= 0) {
      return null;
    }
    TracedTask w = current(at);
    if (w == null || w == wakee || w.pid != at.pid()) {
      return null;
    }
    return w;
  }

  private void wakeUpBlocked(TracedTask t, @Nullable TracedTask waker, long now, int targetCpu) {
    t.measures.wakeups++;
    t.wokenAt = now;
    t.state = TracedTask.State.RUNNABLE;
    Action.Block b = t.pendingBlock;
    t.pendingBlock = null;
    if (waker != null) {
      t.measures.wakeupsByTask++;
      chargeSoFar(waker, now); // the waker's time so far is a Run before its Wake step
      waker.closeRun();
      // onto an idle CPU other than the waker's, the wakeup is queued there (TTWU_QUEUE;
      // ttwu_queue_cond() in kernel/sched/core.c, within one LLC)
      boolean queued =
          targetCpu >= 0
              && targetCpu < curr.length
              && targetCpu != waker.cpu
              && curr[targetCpu] == null;
      t.wokenRemotely = queued;
      boolean remote =
          !queued && targetCpu >= 0 && targetCpu < curr.length && targetCpu != waker.cpu;
      waker.actions.add(new Action.Wake(t, queued, remote, false));
      syncWakes.woke(waker.cpu, waker);
      if (b != null) {
        b.woken(Action.Block.End.BY_TASK, 0);
      }
    } else if (b != null) {
      b.woken(Action.Block.End.TIMED, Math.max(0, now - t.since));
    }
  }

  // ---------------- fork and interrupts ----------------

  private void onFork(TraceEvent.Fork f) {
    TraceEvent.Where at = f.at();
    if (f.parentPid() > 0 && current(at) == null) {
      task(f.parentPid(), f.parentComm(), at, TracedTask.Start.RUNNING);
    }
    TracedTask parent = f.parentPid() > 0 ? byPid.get(f.parentPid()) : null;
    TracedTask old = byPid.get(f.childPid());
    if (old != null && old.state != TracedTask.State.DEAD) {
      warnings.add(
          "fork-live-pid",
          at.line(),
          "fork of pid "
              + f.childPid()
              + " while "
              + old
              + " was not seen to exit (lost events); the old task ends here");
      if (old.state == TracedTask.State.RUNNING) {
        stopRunning(old, old.cpu, at.timeNs(), false);
      }
      old.closeRun();
      old.state = TracedTask.State.DEAD;
    }
    TracedTask child =
        create(f.childPid(), f.childComm(), at, TracedTask.Start.FORKED, at.timeNs());
    child.parent = parent;
    if (parent != null && parent.state == TracedTask.State.RUNNING) {
      chargeSoFar(parent, at.timeNs()); // its time so far is a Run before its fork
      parent.closeRun();
      parent.actions.add(new Action.Fork(child));
    }
  }

  private void onIrq(TraceEvent.Irq i) {
    int c = i.at().cpu();
    long now = i.at().timeNs();
    if (i.entry()) {
      if (irqDepth[c]++ == 0) {
        irqSince[c] = now;
        cpus[c].interrupts++;
      }
      return;
    }
    if (irqDepth[c] == 0) {
      return; // the trace started inside this handler
    }
    if (--irqDepth[c] == 0) {
      long d = now - irqSince[c];
      cpus[c].irqNs += d;
      TracedTask t = curr[c];
      if (t != null && t.state == TracedTask.State.RUNNING && t.since <= irqSince[c]) {
        t.runIrq += d;
      }
    }
  }

  // ---------------- end of the trace ----------------

  /** Ends the walk at {@code end} (at least the last event's time): running tasks stop there. */
  public void finish(long end) {
    end = Math.max(end, endNs);
    endNs = end;
    for (TracedTask t : tasks) {
      if (t.state == TracedTask.State.RUNNING) {
        activeEndNs = end;
        long ran = Math.max(0, end - t.since);
        t.runOnCpu += ran;
        t.measures.runtimeNs += ran;
        cpus[t.cpu].busyNs += ran;
      }
      if (t.state != TracedTask.State.DEAD) {
        t.closeRun();
        if (t.exiting) {
          t.actions.add(new Action.Exit());
        }
      }
    }
  }
}
