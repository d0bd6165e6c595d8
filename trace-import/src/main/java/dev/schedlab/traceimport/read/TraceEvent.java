package dev.schedlab.traceimport.read;

/**
 * One event of a trace, in the vocabulary of the kernel's tracepoints. Every event carries its
 * {@link Where}: the input line, the CPU, the time and the task current on that CPU.
 */
public sealed interface TraceEvent {
  /** Where the event happened. */
  Where at();

  /**
   * The common part of an event line.
   *
   * @param line the input line (1-based)
   * @param cpu the CPU that wrote the event
   * @param timeNs the timestamp in ns
   * @param comm the current task's comm as the line names it ({@code <idle>} for the idle task)
   * @param pid the current task's pid (0 for the idle task)
   * @param context task or interrupt context, from the flags column when the trace has one
   */
  record Where(int line, int cpu, long timeNs, String comm, int pid, Context context) {}

  /**
   * {@code sched_switch}: {@code prevState} as printed ({@code R}, {@code R+}, {@code S}, {@code
   * D|K}, ...).
   */
  record Switch(
      Where at,
      String prevComm,
      int prevPid,
      int prevPrio,
      String prevState,
      String nextComm,
      int nextPid,
      int nextPrio)
      implements TraceEvent {
    /** Whether prev stays runnable (preempted), rather than going to sleep or dying. */
    public boolean prevRunnable() {
      return prevState.startsWith("R");
    }

    /** Whether prev is dead ({@code X}) or a zombie ({@code Z}): its last switch. */
    public boolean prevDead() {
      return prevState.startsWith("X") || prevState.startsWith("Z");
    }
  }

  /** Which of the wakeup tracepoints. */
  enum WakeKind {
    /** {@code sched_waking}: on the waker's CPU, in the waker's context. */
    WAKING,
    /** {@code sched_wakeup}: the task is on a runqueue. */
    WAKEUP,
    /** {@code sched_wakeup_new}: a new task is on a runqueue for the first time. */
    WAKEUP_NEW
  }

  /** {@code sched_waking}, {@code sched_wakeup} or {@code sched_wakeup_new} of task {@code pid}. */
  record Wake(Where at, WakeKind kind, String comm, int pid, int prio, int targetCpu)
      implements TraceEvent {}

  /** {@code sched_process_fork}. */
  record Fork(Where at, String parentComm, int parentPid, String childComm, int childPid)
      implements TraceEvent {}

  /** {@code sched_process_exit}. */
  record Exit(Where at, String comm, int pid) implements TraceEvent {}

  /** {@code sched_migrate_task}. */
  record Migrate(Where at, String comm, int pid, int origCpu, int destCpu) implements TraceEvent {}

  /** The kinds of interrupt handler a trace shows. */
  enum IrqKind {
    /** {@code irq_handler_entry/exit}: a device or timer handler. */
    HARDIRQ,
    /** {@code softirq_entry/exit}. */
    SOFTIRQ,
    /**
     * An IPI or APIC vector: {@code ipi_entry/exit}, {@code reschedule_entry}, {@code
     * local_timer_entry}, ...
     */
    VECTOR
  }

  /** Entry to or exit from an interrupt handler. */
  record Irq(Where at, boolean entry, IrqKind kind, String name) implements TraceEvent {}

  /** {@code ipi_send_cpu} or {@code ipi_send_cpumask}: an IPI sent from {@code at().cpu()}. */
  record IpiSend(Where at, String targets, String callsite) implements TraceEvent {}

  /** A lost-events marker: events of {@code at().cpu()} are missing before this point. */
  record Lost(Where at, long count) implements TraceEvent {}
}
