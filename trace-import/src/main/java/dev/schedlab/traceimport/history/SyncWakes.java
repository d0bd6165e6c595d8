package dev.schedlab.traceimport.history;

import dev.schedlab.traceimport.read.TraceEvent;
import dev.schedlab.traceimport.read.TraceEvent.WakeKind;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Which wakeups by tasks were synchronous ({@code WF_SYNC}: the waker is about to sleep, so {@code
 * wake_affine()} may prefer its CPU). No tracepoint carries the flag; the kernel passes it where
 * the waker goes on to wait (a pipe or socket write before the read, {@code __wake_up_parent()} at
 * exit), so the wakeups a task makes are taken as synchronous when its next event on its CPU after
 * them is its own switch out in an interruptible sleep ({@code S}: waiting for data) or dead. A
 * wakeup before an uninterruptible wait ({@code D}) is not: that is a kernel path waking a worker
 * before waiting for it (an I/O submission: {@code queue_work()}, no WF_SYNC). The rest of each
 * {@code try_to_wake_up()} ({@code sched_wakeup} and {@code sched_migrate_task} of the wakee, the
 * IPI that queues it elsewhere) and interrupts on that CPU are not the waker's events and leave the
 * guess open.
 */
final class SyncWakes {
  /** Per CPU: the waker whose last wakeups may be synchronous, or null. */
  private final @Nullable TracedTask[] waker;

  /** Per CPU: those wakeups, as indices of {@link Action.Wake}s in the waker's actions. */
  private final List<List<Integer>> pending = new ArrayList<>();

  SyncWakes(int nrCpus) {
    waker = new TracedTask[nrCpus];
    for (int i = 0; i < nrCpus; i++) {
      pending.add(new ArrayList<>());
    }
  }

  /** {@code w} just recorded a wakeup from CPU {@code cpu} (its last action). */
  void woke(int cpu, TracedTask w) {
    if (waker[cpu] != w) {
      waker[cpu] = w;
      pending.get(cpu).clear();
    }
    pending.get(cpu).add(w.actions.size() - 1);
  }

  /**
   * The next event of CPU {@code cpu}, before the walk applies it: a switch of the waker out in an
   * interruptible sleep or dead makes its wakeups synchronous; another event of its own ends the
   * guess.
   */
  void next(int cpu, TraceEvent e) {
    TracedTask w = waker[cpu];
    if (w == null || notTheWakersNext(e, w)) {
      return;
    }
    if (e instanceof TraceEvent.Switch s
        && s.prevPid() == w.pid
        && (s.prevState().startsWith("S") || s.prevDead())) {
      for (int i : pending.get(cpu)) {
        Action.Wake wake = (Action.Wake) w.actions.get(i);
        w.actions.set(i, new Action.Wake(wake.target(), wake.queued(), wake.remote(), true));
      }
    }
    waker[cpu] = null;
    pending.get(cpu).clear();
  }

  /**
   * Whether {@code e} leaves the guess open: an interrupt, the end of a {@code try_to_wake_up()}
   * already begun, or a further wakeup by the same waker (which joins the guess).
   */
  private static boolean notTheWakersNext(TraceEvent e, TracedTask w) {
    return e instanceof TraceEvent.Irq
        || e instanceof TraceEvent.IpiSend
        || e instanceof TraceEvent.Migrate
        || (e instanceof TraceEvent.Wake k
            && (k.kind() == WakeKind.WAKEUP || k.at().pid() == w.pid));
  }
}
