package dev.schedlab.report.timeline;

import dev.schedlab.engine.output.TraceSink;

/** Sends every trace event to two sinks (a trace file and a timeline, say), in that order. */
public final class TeeSink implements TraceSink {
  private final TraceSink a;
  private final TraceSink b;

  /** Events go to {@code a}, then {@code b}. */
  public TeeSink(TraceSink a, TraceSink b) {
    this.a = a;
    this.b = b;
  }

  @Override
  public boolean enabled() {
    return a.enabled() || b.enabled();
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
    a.schedSwitch(t, cpu, prevComm, prevPid, prevPrio, prevState, nextComm, nextPid, nextPrio);
    b.schedSwitch(t, cpu, prevComm, prevPid, prevPrio, prevState, nextComm, nextPid, nextPrio);
  }

  @Override
  public void schedWaking(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    a.schedWaking(t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
    b.schedWaking(t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  @Override
  public void schedWakeup(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    a.schedWakeup(t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
    b.schedWakeup(t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  @Override
  public void cpuIdle(long t, int cpu, String curComm, int curPid, int state) {
    a.cpuIdle(t, cpu, curComm, curPid, state);
    b.cpuIdle(t, cpu, curComm, curPid, state);
  }

  @Override
  public void ipiEntry(long t, int cpu, String curComm, int curPid, String reason) {
    a.ipiEntry(t, cpu, curComm, curPid, reason);
    b.ipiEntry(t, cpu, curComm, curPid, reason);
  }

  @Override
  public void ipiExit(long t, int cpu, String curComm, int curPid, String reason) {
    a.ipiExit(t, cpu, curComm, curPid, reason);
    b.ipiExit(t, cpu, curComm, curPid, reason);
  }

  @Override
  public void irqEntry(long t, int cpu, String curComm, int curPid, int irq, String name) {
    a.irqEntry(t, cpu, curComm, curPid, irq, name);
    b.irqEntry(t, cpu, curComm, curPid, irq, name);
  }

  @Override
  public void irqExit(long t, int cpu, String curComm, int curPid, int irq) {
    a.irqExit(t, cpu, curComm, curPid, irq);
    b.irqExit(t, cpu, curComm, curPid, irq);
  }

  @Override
  public void ipiSend(long t, int cpu, String curComm, int curPid, int target, String reason) {
    a.ipiSend(t, cpu, curComm, curPid, target, reason);
    b.ipiSend(t, cpu, curComm, curPid, target, reason);
  }

  @Override
  public void wakeIdleWithoutIpi(long t, int cpu, String curComm, int curPid, int target) {
    a.wakeIdleWithoutIpi(t, cpu, curComm, curPid, target);
    b.wakeIdleWithoutIpi(t, cpu, curComm, curPid, target);
  }

  @Override
  public void dump(long t, int cpu, String curComm, int curPid, String text) {
    a.dump(t, cpu, curComm, curPid, text);
    b.dump(t, cpu, curComm, curPid, text);
  }
}
