package dev.schedlab.traceimport.workload;

import dev.schedlab.traceimport.history.Action;
import dev.schedlab.traceimport.history.TracedTask;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One task's replay program in the step language: its traced stretches on a CPU become {@code user}
 * work, each wakeup it made a {@code wake} of the wakee's own wait queue ({@code sync} when the
 * waker went to sleep next), each block ended by another task a {@code block} on its own queue (so
 * it runs again when its waker's step runs, not at a time), each block ended by an interrupt or a
 * timer a {@code sleep} of the traced length, and its exit an {@code exit}. A task still alive at
 * the end parks on a queue nobody wakes.
 *
 * <p>The work of a stretch is its traced time less its interrupt handlers and less the kernel paths
 * the model adds itself ({@link PathCosts}); what a stretch cannot pay is taken from the next.
 */
public final class ReplayProgram {
  /** The wait queue of tasks alive at the trace's end (YAML, quoted). */
  static final String PARKED = "\"trace.end\"";

  /** The mark each program counts when it has done all its traced actions. */
  public static final String DONE = "replay.done";

  /** Counted before each wake step, per wakee: the wakeups the replay made, found asleep or not. */
  public static final String WAKE_MARK = "replay.wake.";

  /** A program and when its task starts, relative to the trace start. */
  record Program(long startNs, List<String> steps) {}

  private ReplayProgram() {}

  static Program of(
      TracedTask t, long traceStartNs, PathCosts costs, Function<TracedTask, String> queueOf) {
    // queueOf gives a task's own wait queue (and name) as a quoted YAML string, null for a task
    // not replayed
    List<Action> actions = t.actions();
    long start = t.startNs() - traceStartNs;
    List<String> steps = new ArrayList<>();
    long debt = 0;
    for (int i = 0; i < actions.size(); i++) {
      Action a = actions.get(i);
      if (a instanceof Action.Run r) {
        long work =
            r.onCpuNs()
                - r.irqNs()
                - costs.switchIns(r.switchIns() - r.switchInsFromIdle(), r.switchInsFromIdle())
                - costs.queuedWakeups(r.queuedWakeups())
                - debt;
        debt = Math.max(0, -work);
        if (work > 0) {
          steps.add("{user: " + work + "}");
        }
      } else if (a instanceof Action.Wake w) {
        String q = queueOf.apply(w.target());
        if (q == null) {
          continue;
        }
        steps.add("{mark: \"" + WAKE_MARK + q.substring(1) + "}");
        debt += costs.wake(w.queued(), w.remote());
        String wake = w.sync() ? "{wake: {waitq: " + q + ", sync: true}}" : "{wake: " + q + "}";
        Action.Block wait = kernelWaitAfter(actions, i);
        if (wait == null) {
          steps.add(wake);
          continue;
        }
        // the wake and the uninterruptible wait that follows it on the CPU are one kernel path
        // (an I/O submission that wakes the block layer's worker, then io_schedule()): no return
        // to user, so no preemption point, between them
        Action.Run between = actions.get(i + 1) instanceof Action.Run r ? r : null;
        long kernel = between == null ? 0 : between.onCpuNs() - between.irqNs() - debt;
        debt = Math.max(0, -kernel);
        steps.add(
            "{syscall: ["
                + wake
                + (kernel > 0 ? ", {kernel: " + kernel + "}" : "")
                + ", "
                + blockStep(wait, t, queueOf)
                + "]}");
        i += between == null ? 1 : 2;
      } else if (a instanceof Action.Fork f) {
        String child = queueOf.apply(f.child());
        if (child != null) {
          steps.add("{fork: " + child + "}");
        }
      } else if (a instanceof Action.Block b) {
        steps.add(blockStep(b, t, queueOf));
        // asleep when the trace began: the replay starts it inside this block (start_asleep)
        debt += i == 0 && startsAsleep(t) ? costs.blockEnteredBefore() : costs.block();
      } else if (a instanceof Action.Exit) {
        steps.add("{mark: " + DONE + "}");
        steps.add("exit");
        break;
      }
    }
    if (steps.isEmpty() || !steps.get(steps.size() - 1).equals("exit")) {
      String last = steps.isEmpty() ? "" : steps.remove(steps.size() - 1);
      if (!last.isEmpty() && !last.equals("{block: " + PARKED + "}")) {
        steps.add(last);
      }
      steps.add("{mark: " + DONE + "}");
      steps.add("{block: " + PARKED + "}");
    }
    return new Program(Math.max(0, start), steps);
  }

  /**
   * The uninterruptible wait that follows the wake at {@code i} on the same CPU stretch (directly,
   * or after a run without a switch), or null.
   */
  private static Action.@Nullable Block kernelWaitAfter(List<Action> actions, int i) {
    int j = i + 1;
    if (j < actions.size() && actions.get(j) instanceof Action.Run r && r.switchIns() == 0) {
      j++;
    }
    return j < actions.size()
            && actions.get(j) instanceof Action.Block b
            && b.uninterruptible()
            && b.end() != Action.Block.End.NEVER // a wait still open at the end parks (below)
        ? b
        : null;
  }

  /** The step of block {@code b} of {@code t}: on its own queue, a sleep, or parked. */
  private static String blockStep(
      Action.Block b, TracedTask t, Function<TracedTask, String> queueOf) {
    return switch (b.end()) {
      case BY_TASK -> "{block: " + queueOf.apply(t) + "}";
      case TIMED -> "{sleep: " + Math.max(1, b.durationNs()) + "}";
      default -> "{block: " + PARKED + "}";
    };
  }

  /**
   * Whether {@code t} was asleep when the trace began: its first action is the block it was in,
   * which its replay starts inside ({@code start_asleep}) instead of running first to enter it.
   */
  static boolean startsAsleep(TracedTask t) {
    return t.start() == TracedTask.Start.BLOCKED
        && !t.actions().isEmpty()
        && t.actions().get(0) instanceof Action.Block;
  }

  /**
   * Whether {@code t} was on its CPU when the trace began: the replay starts it there as the CPU's
   * current task ({@code start_running}) instead of letting the model pick among the tasks queued
   * there with fresh scheduler state.
   */
  static boolean startsRunning(TracedTask t, Program p) {
    return t.start() == TracedTask.Start.RUNNING && t.startCpu() >= 0 && p.startNs() == 0;
  }
}
