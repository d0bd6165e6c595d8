package dev.schedlab.engine.core;

/** A queued task_work: runs in its task's context at exit to user mode and says what it cost. */
@FunctionalInterface
interface TaskWorkItem {
  /** Runs the work for {@code t} on {@code cpu}; returns the CPU time it took, ns. */
  long run(Task t, int cpu);
}
