package dev.schedlab.host.check;

import dev.schedlab.engine.output.TraceSink;
import java.util.HashMap;
import java.util.Map;

/**
 * The model's counterpart of {@code /proc/PID/schedstat} and {@code /proc/PID/sched}'s {@code
 * se.nr_migrations}, from its {@code sched_switch} events: per task, the time on a CPU and the
 * switch-ins on another CPU than the last one, both counted from {@code fromNs}.
 */
final class TaskTimes implements TraceSink {
  private final long fromNs;
  private final Map<Integer, Task> tasks = new HashMap<>();

  /** One task's figures; {@code comm} as traced. */
  static final class Task {
    final String comm;
    long runNs;
    long migrations;
    long inSince = -1;
    int lastCpu = -1;

    Task(String comm) {
      this.comm = comm;
    }
  }

  TaskTimes(long fromNs) {
    this.fromNs = fromNs;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public void schedSwitch(
      long t,
      int cpu,
      String prevComm,
      int prevPid,
      int prevPrio,
      char prevState,
      String nextComm,
      int nextPid,
      int nextPrio) {
    Task prev = tasks.get(prevPid);
    if (prev != null && prev.inSince >= 0) {
      prev.runNs += Math.max(0, t - prev.inSince); // inSince is fromNs at the earliest
      prev.inSince = -1;
    }
    if (nextPid == 0) {
      return; // the idle task
    }
    Task next = tasks.computeIfAbsent(nextPid, p -> new Task(nextComm));
    if (next.lastCpu >= 0 && next.lastCpu != cpu && t >= fromNs) {
      next.migrations++;
    }
    next.lastCpu = cpu;
    next.inSince = Math.max(t, fromNs);
  }

  /** The tasks seen, by pid; call after the run, with {@code endNs} closing the ones on a CPU. */
  Map<Integer, Task> tasks(long endNs) {
    for (Task k : tasks.values()) {
      if (k.inSince >= 0 && endNs > k.inSince) {
        k.runNs += endNs - k.inSince;
        k.inSince = -1;
      }
    }
    return tasks;
  }
}
