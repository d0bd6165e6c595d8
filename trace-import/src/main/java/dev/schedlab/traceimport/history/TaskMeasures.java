package dev.schedlab.traceimport.history;

import org.HdrHistogram.Histogram;

/** What the report compares per task: the same definitions for the trace and for a replay. */
public final class TaskMeasures {
  /** Time on a CPU (switch-in to switch-out), ns. */
  public long runtimeNs;

  /** Times switched in (a task on a CPU when the trace starts: one more). */
  public long runs;

  /**
   * Wakeups: {@code try_to_wake_up()} calls that found the task in a sleeping state and traced
   * {@code sched_waking}, whether it had switched out asleep or was still on its runqueue.
   */
  public long wakeups;

  /** Of those, wakeups by another task (the rest came from interrupts: timers, devices). */
  public long wakeupsByTask;

  /**
   * Of those, wakeups that found it still on its runqueue (in its sleep window: on its CPU, or
   * preempted there), which cancel the sleep ({@code ttwu_runnable()}).
   */
  public long wakeupsRunning;

  /** Switch-ins on another CPU than the previous one. */
  public long migrations;

  /** Switched out asleep (voluntary context switches). */
  public long voluntarySwitches;

  /** Switched out runnable (involuntary context switches, preemptions). */
  public long involuntarySwitches;

  /** Wakeup to switch-in, ns (wakeups of a task that had switched out asleep). */
  public final Histogram wakeLatency = new Histogram(3);

  void latency(long ns) {
    wakeLatency.recordValue(Math.max(0, ns));
  }

  /** Adds {@code o} into this (totals). */
  public void add(TaskMeasures o) {
    runtimeNs += o.runtimeNs;
    runs += o.runs;
    wakeups += o.wakeups;
    wakeupsByTask += o.wakeupsByTask;
    wakeupsRunning += o.wakeupsRunning;
    migrations += o.migrations;
    voluntarySwitches += o.voluntarySwitches;
    involuntarySwitches += o.involuntarySwitches;
    wakeLatency.add(o.wakeLatency);
  }
}
