package dev.schedlab.traceimport.replay;

import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.traceimport.history.History;
import dev.schedlab.traceimport.read.Context;
import dev.schedlab.traceimport.read.TraceEvent;
import dev.schedlab.traceimport.read.TraceEvent.IrqKind;
import dev.schedlab.traceimport.read.TraceEvent.WakeKind;
import dev.schedlab.traceimport.read.TraceEvent.Where;

/**
 * The replay's trace events, fed straight into a {@link History} (nothing is kept): the replay is
 * measured by the same walk as the trace.
 */
final class CaptureSink implements TraceSink {
  private final History history;

  CaptureSink(History history) {
    this.history = history;
  }

  @Override
  public boolean enabled() {
    return true;
  }

  private static Where at(long t, int cpu, String comm, int pid) {
    return new Where(0, cpu, t, comm, pid, Context.TASK);
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
    history.accept(
        new TraceEvent.Switch(
            at(t, cpu, prevComm, prevPid),
            prevComm,
            prevPid,
            prevPrio,
            String.valueOf(prevState),
            nextComm,
            nextPid,
            nextPrio));
  }

  @Override
  public void schedWaking(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    history.accept(
        new TraceEvent.Wake(
            at(t, cpu, curComm, curPid), WakeKind.WAKING, comm, pid, prio, targetCpu));
  }

  @Override
  public void schedWakeup(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    history.accept(
        new TraceEvent.Wake(
            at(t, cpu, curComm, curPid), WakeKind.WAKEUP, comm, pid, prio, targetCpu));
  }

  @Override
  public void schedWakeupNew(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    history.accept(
        new TraceEvent.Wake(
            at(t, cpu, curComm, curPid), WakeKind.WAKEUP_NEW, comm, pid, prio, targetCpu));
  }

  @Override
  public void irqEntry(long t, int cpu, String curComm, int curPid, int irq, String name) {
    history.accept(new TraceEvent.Irq(at(t, cpu, curComm, curPid), true, IrqKind.HARDIRQ, name));
  }

  @Override
  public void irqExit(long t, int cpu, String curComm, int curPid, int irq) {
    history.accept(new TraceEvent.Irq(at(t, cpu, curComm, curPid), false, IrqKind.HARDIRQ, ""));
  }

  @Override
  public void ipiEntry(long t, int cpu, String curComm, int curPid, String reason) {
    history.accept(new TraceEvent.Irq(at(t, cpu, curComm, curPid), true, IrqKind.VECTOR, reason));
  }

  @Override
  public void ipiExit(long t, int cpu, String curComm, int curPid, String reason) {
    history.accept(new TraceEvent.Irq(at(t, cpu, curComm, curPid), false, IrqKind.VECTOR, reason));
  }

  @Override
  public void ipiSend(long t, int cpu, String curComm, int curPid, int target, String reason) {
    history.accept(
        new TraceEvent.IpiSend(at(t, cpu, curComm, curPid), String.valueOf(target), reason));
  }
}
