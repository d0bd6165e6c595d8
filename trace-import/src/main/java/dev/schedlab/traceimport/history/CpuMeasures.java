package dev.schedlab.traceimport.history;

/** What the report compares per CPU. */
public final class CpuMeasures {
  /** Time a task (not the idle task) was current, ns. */
  public long busyNs;

  /** {@code sched_switch} events (prev differs from next). */
  public long contextSwitches;

  /** Interrupt handlers entered (outermost: nested handlers count once). */
  public long interrupts;

  /** Time in interrupt handlers, ns. */
  public long irqNs;

  /** IPIs sent from this CPU. */
  public long ipisSent;
}
