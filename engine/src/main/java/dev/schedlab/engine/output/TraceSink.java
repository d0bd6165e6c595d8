package dev.schedlab.engine.output;

/**
 * Receives trace events in ftrace's vocabulary. Each call names the CPU and the task current on it
 * ({@code comm}, {@code pid}; the idle task is {@code <idle>}, pid 0). Times are simulated ns.
 */
public interface TraceSink extends AutoCloseable {
  /** A sink that drops everything. */
  TraceSink NONE = new TraceSink() {};

  /** Whether the sink records anything (lets the engine skip building arguments). */
  default boolean enabled() {
    return false;
  }

  /** {@code sched_switch}. {@code prevState} is R, S, D or X. */
  default void schedSwitch(
      long t,
      int cpu,
      String prevComm,
      int prevPid,
      int prevPrio,
      char prevState,
      String nextComm,
      int nextPid,
      int nextPrio) {}

  /** {@code sched_waking} (on the waker's CPU). */
  default void schedWaking(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {}

  /** {@code sched_wakeup} (when the task is queued on {@code targetCpu}). */
  default void schedWakeup(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {}

  /**
   * {@code sched_wakeup_new} (a new task queued for the first time, {@code wake_up_new_task()}).
   */
  default void schedWakeupNew(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    schedWakeup(t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  /**
   * {@code cpu_idle}: {@code state} is the idle-state index, or -1 on exit (printed 4294967295).
   */
  default void cpuIdle(long t, int cpu, String curComm, int curPid, int state) {}

  /** {@code ipi_entry}/{@code ipi_exit}: {@code reason} like "Rescheduling interrupts". */
  default void ipiEntry(long t, int cpu, String curComm, int curPid, String reason) {}

  /** {@code ipi_exit}. */
  default void ipiExit(long t, int cpu, String curComm, int curPid, String reason) {}

  /** {@code irq_handler_entry}, for example irq 0 name "timer". */
  default void irqEntry(long t, int cpu, String curComm, int curPid, int irq, String name) {}

  /** {@code irq_handler_exit}. */
  default void irqExit(long t, int cpu, String curComm, int curPid, int irq) {}

  /** {@code ipi_send_cpu}: an IPI sent from {@code cpu} to {@code target}. */
  default void ipiSend(long t, int cpu, String curComm, int curPid, int target, String reason) {}

  /**
   * {@code sched_wake_idle_without_ipi}: {@code cpu} woke the polling idle {@code target} by a flag
   * write.
   */
  default void wakeIdleWithoutIpi(long t, int cpu, String curComm, int curPid, int target) {}

  /**
   * {@code sched_ext_dump}: one line of the report of a plugin ejection (the summary, then the
   * runqueue dump), as sched_ext writes its error-exit dump into the trace.
   */
  default void dump(long t, int cpu, String curComm, int curPid, String text) {}

  /**
   * {@code lock:contention_begin}: the task on {@code cpu} found the lock at {@code lockAddr} taken
   * and waits; {@code flags} as the tracepoint prints them (SPIN, MUTEX, READ, WRITE, RT).
   */
  default void lockContentionBegin(
      long t, int cpu, String curComm, int curPid, long lockAddr, String flags) {}

  /** {@code lock:contention_end}: the wait for the lock at {@code lockAddr} is over (ret=0). */
  default void lockContentionEnd(long t, int cpu, String curComm, int curPid, long lockAddr) {}

  /** Flushes and closes; must not throw for {@link #NONE}. */
  @Override
  default void close() {}
}
