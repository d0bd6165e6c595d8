package dev.schedlab.traceimport.history;

import org.HdrHistogram.Histogram;

/** What the report compares per task: the same definitions for the trace and for a replay. */
public final class TaskMeasures {
  /** Time on a CPU (switch-in to switch-out), ns. */
  public long runtimeNs;

  /** Times switched in (a task on a CPU when the trace starts: one more). */
  public long runs;

  /** Wakeups that ended a block (switched out asleep, then woken). */
  public long wakeups;

  /** Of those, wakeups by another task (the rest came from interrupts: timers, devices). */
  public long wakeupsByTask;

  /** Wakeups of the task while it was still on its CPU (it had not blocked yet). */
  public long wakeupsRunning;

  /** Switch-ins on another CPU than the previous one. */
  public long migrations;

  /** Switched out asleep (voluntary context switches). */
  public long voluntarySwitches;

  /** Switched out runnable (involuntary context switches, preemptions). */
  public long involuntarySwitches;

  /** Wakeup to switch-in, ns (wakeups that ended a block). */
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
