package dev.schedlab.traceimport.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One task of a trace: one pid from its fork (or the trace start) to its exit (or the trace end); a
 * reused pid is another task. Holds what it did ({@link #actions()}) and its {@link TaskMeasures}.
 */
public final class TracedTask {
  /** How a task enters the trace. */
  public enum Start {
    /** On a CPU when the trace starts. */
    RUNNING,
    /** Waiting on a runqueue when the trace starts (first seen switched in). */
    RUNNABLE,
    /** Asleep when the trace starts (first seen woken). */
    BLOCKED,
    /** Created during the trace (fork or first wakeup of a new task). */
    FORKED
  }

  enum State {
    RUNNING,
    RUNNABLE,
    BLOCKED,
    DEAD
  }

  final int pid;
  final int generation;
  String comm;
  final Start start;
  final long startNs;
  final TaskMeasures measures = new TaskMeasures();
  final List<Action> actions = new ArrayList<>();
  private final Map<Integer, Integer> prios = new HashMap<>();

  State state = State.RUNNABLE; // History.create() sets it from the start
  int cpu = -1;
  int lastCpu = -1;

  /** The task that forked it (a fork event of the trace), or null. */
  @Nullable TracedTask parent;

  /** For a task alive when the trace starts: the CPU it was on then (-1: unknown, or forked). */
  int startCpu = -1;

  long since;
  long wokenAt = -1;
  boolean exiting;
  Action.@Nullable Block pendingBlock;
  // the Run being accumulated
  long runOnCpu;
  long runIrq;
  int runSwitchIns;
  int runFromIdle;
  int runQueuedWakeups;

  /** Woken from another CPU and not switched in since. */
  boolean wokenRemotely;

  TracedTask(int pid, int generation, String comm, Start start, long startNs) {
    this.pid = pid;
    this.generation = generation;
    this.comm = comm;
    this.start = start;
    this.startNs = startNs;
  }

  /** The traced pid. */
  public int pid() {
    return pid;
  }

  /** 1 for the first task seen with this pid, 2 after its pid was reused, ... */
  public int generation() {
    return generation;
  }

  /** The last comm it had. */
  public String comm() {
    return comm;
  }

  /** How it entered the trace. */
  public Start start() {
    return start;
  }

  /** When it entered the trace (its fork, or the trace start), ns of trace time. */
  public long startNs() {
    return startNs;
  }

  /**
   * For a task alive when the trace starts, the CPU it was on then (running, queued, or last run on
   * when asleep); -1 for a task created during the trace or one whose CPU is unknown.
   */
  public int startCpu() {
    return startCpu;
  }

  /** The task whose fork event created it, or null (alive at the start, or no fork traced). */
  public @Nullable TracedTask parent() {
    return parent;
  }

  /** Whether it exited during the trace. */
  public boolean exited() {
    return state == State.DEAD;
  }

  /** Whether it was asleep when the trace (or replay) ended. */
  public boolean asleepAtEnd() {
    return state == State.BLOCKED;
  }

  /** Its actions in order. */
  public List<Action> actions() {
    return actions;
  }

  /** Its measures. */
  public TaskMeasures measures() {
    return measures;
  }

  /** The priority it had most often (kernel prio: 0-99 RT, 100-139 fair, -1 deadline). */
  public int prio() {
    int best = 120;
    int bestCount = -1;
    for (Map.Entry<Integer, Integer> e : prios.entrySet()) {
      if (e.getValue() > bestCount || (e.getValue() == bestCount && e.getKey() < best)) {
        best = e.getKey();
        bestCount = e.getValue();
      }
    }
    return best;
  }

  void sawPrio(int prio) {
    prios.merge(prio, 1, Integer::sum);
  }

  /** Closes the Run being accumulated into an action (if it has any time). */
  void closeRun() {
    if (runOnCpu > 0 || runSwitchIns > 0) {
      actions.add(new Action.Run(runOnCpu, runIrq, runSwitchIns, runFromIdle, runQueuedWakeups));
    }
    runOnCpu = 0;
    runIrq = 0;
    runSwitchIns = 0;
    runFromIdle = 0;
    runQueuedWakeups = 0;
  }

  @Override
  public String toString() {
    return comm + "-" + pid + (generation > 1 ? "#" + generation : "");
  }
}
