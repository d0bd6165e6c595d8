package dev.schedlab.lab.output;

import dev.schedlab.engine.output.TraceSink;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link TraceSink} writing ftrace text as the tracefs {@code trace} file does, readable by
 * Perfetto (systrace text importer), idlestat ({@code --import}) and traceshark. The header is
 * {@code # tracer: nop} and a last comment line ending in {@code #P:<ncpus>} (idlestat resets the
 * CPU count on any comment line after it). Lines are {@code %16s-%-7d [%03d] d... %5d.%09d:
 * <event>: <fields>} (comm, pid, CPU, seconds, nanoseconds: the simulation is exact to the ns, and
 * every reader accepts 9 decimals where the kernel's default clock prints 6); spaces in comms
 * become {@code _}.
 *
 * <p>The trace goes to a temporary file beside the target; {@link #close()} moves it into place
 * atomically, {@link #abort()} deletes it, so a failed run leaves no trace file behind. Write
 * errors surface as {@link UncheckedIOException}.
 */
public final class FtraceWriter implements TraceSink {
  private final Path target;
  private final Path temp;
  private final BufferedWriter out;
  private final StringBuilder line = new StringBuilder(160);
  private boolean done;

  private FtraceWriter(Path target, Path temp, BufferedWriter out) {
    this.target = target;
    this.temp = temp;
    this.out = out;
  }

  /** Starts a trace for a machine of {@code nrCpus} CPUs that will end up at {@code target}. */
  public static FtraceWriter open(Path target, int nrCpus) throws IOException {
    Path temp = AtomicFiles.tempBeside(target);
    BufferedWriter out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8);
    FtraceWriter w = new FtraceWriter(target, temp, out);
    try {
      out.write(
          "# tracer: nop\n#\n# schedlab simulated trace, times in simulated seconds   #P:"
              + nrCpus
              + "\n");
    } catch (IOException e) {
      w.abort();
      throw e;
    }
    return w;
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
    StringBuilder b = begin(t, cpu, prevComm, prevPid, "sched_switch");
    b.append("prev_comm=")
        .append(comm(prevComm))
        .append(" prev_pid=")
        .append(prevPid)
        .append(" prev_prio=")
        .append(prevPrio)
        .append(" prev_state=")
        .append(prevState)
        .append(" ==> next_comm=")
        .append(comm(nextComm))
        .append(" next_pid=")
        .append(nextPid)
        .append(" next_prio=")
        .append(nextPrio);
    emit();
  }

  @Override
  public void schedWaking(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    wake("sched_waking", t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  @Override
  public void schedWakeup(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    wake("sched_wakeup", t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  @Override
  public void schedWakeupNew(
      long t, int cpu, String curComm, int curPid, String comm, int pid, int prio, int targetCpu) {
    wake("sched_wakeup_new", t, cpu, curComm, curPid, comm, pid, prio, targetCpu);
  }

  private void wake(
      String ev,
      long t,
      int cpu,
      String curComm,
      int curPid,
      String comm,
      int pid,
      int prio,
      int targetCpu) {
    begin(t, cpu, curComm, curPid, ev)
        .append("comm=")
        .append(comm(comm))
        .append(" pid=")
        .append(pid)
        .append(" prio=")
        .append(prio)
        .append(" target_cpu=");
    pad(line, targetCpu, 3);
    emit();
  }

  @Override
  public void cpuIdle(long t, int cpu, String curComm, int curPid, int state) {
    begin(t, cpu, curComm, curPid, "cpu_idle")
        .append("state=")
        .append(state & 0xffffffffL)
        .append(" cpu_id=")
        .append(cpu);
    emit();
  }

  @Override
  public void ipiEntry(long t, int cpu, String curComm, int curPid, String reason) {
    begin(t, cpu, curComm, curPid, "ipi_entry").append('(').append(reason).append(')');
    emit();
  }

  @Override
  public void ipiExit(long t, int cpu, String curComm, int curPid, String reason) {
    begin(t, cpu, curComm, curPid, "ipi_exit").append('(').append(reason).append(')');
    emit();
  }

  @Override
  public void irqEntry(long t, int cpu, String curComm, int curPid, int irq, String name) {
    begin(t, cpu, curComm, curPid, "irq_handler_entry")
        .append("irq=")
        .append(irq)
        .append(" name=")
        .append(comm(name));
    emit();
  }

  @Override
  public void irqExit(long t, int cpu, String curComm, int curPid, int irq) {
    begin(t, cpu, curComm, curPid, "irq_handler_exit")
        .append("irq=")
        .append(irq)
        .append(" ret=handled");
    emit();
  }

  @Override
  public void ipiSend(long t, int cpu, String curComm, int curPid, int target, String reason) {
    begin(t, cpu, curComm, curPid, "ipi_send_cpu")
        .append("cpu=")
        .append(target)
        .append(" callsite=")
        .append(comm(reason))
        .append(" callback=0x0");
    emit();
  }

  @Override
  public void wakeIdleWithoutIpi(long t, int cpu, String curComm, int curPid, int target) {
    begin(t, cpu, curComm, curPid, "sched_wake_idle_without_ipi").append("cpu=").append(target);
    emit();
  }

  @Override
  public void dump(long t, int cpu, String curComm, int curPid, String text) {
    begin(t, cpu, curComm, curPid, "sched_ext_dump").append(text.replace('\n', ' '));
    emit();
  }

  @Override
  public void lockContentionBegin(
      long t, int cpu, String curComm, int curPid, long lockAddr, String flags) {
    begin(t, cpu, curComm, curPid, "contention_begin")
        .append("0x")
        .append(Long.toHexString(lockAddr))
        .append(" (flags=")
        .append(flags)
        .append(')');
    emit();
  }

  @Override
  public void lockContentionEnd(long t, int cpu, String curComm, int curPid, long lockAddr) {
    begin(t, cpu, curComm, curPid, "contention_end")
        .append("0x")
        .append(Long.toHexString(lockAddr))
        .append(" (ret=0)");
    emit();
  }

  /** Finishes the trace and moves it to the target. */
  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    try {
      out.close();
      AtomicFiles.moveInto(temp, target);
    } catch (IOException e) {
      deleteTemp();
      throw new UncheckedIOException("cannot write trace " + target + ": " + e.getMessage(), e);
    }
  }

  /** Drops the trace: the temporary file is deleted and the target left untouched. */
  public void abort() {
    if (done) {
      return;
    }
    done = true;
    try {
      out.close();
    } catch (IOException e) {
      // the file is deleted anyway
    }
    deleteTemp();
  }

  private void deleteTemp() {
    try {
      Files.deleteIfExists(temp);
    } catch (IOException e) {
      // nothing more to do: the target was never touched
    }
  }

  private StringBuilder begin(long t, int cpu, String comm, int pid, String event) {
    StringBuilder b = line;
    b.setLength(0);
    String c = comm(comm);
    for (int i = c.length(); i < 16; i++) {
      b.append(' ');
    }
    b.append(c).append('-').append(pid);
    for (int i = digits(pid); i < 7; i++) {
      b.append(' ');
    }
    b.append(" [");
    pad(b, cpu, 3);
    b.append("] d... ");
    long sec = t / 1_000_000_000L;
    long nsec = t % 1_000_000_000L;
    for (int i = digits(sec); i < 5; i++) {
      b.append(' ');
    }
    b.append(sec).append('.');
    pad(b, nsec, 9);
    return b.append(": ").append(event).append(": ");
  }

  private void emit() {
    if (done) {
      throw new IllegalStateException("trace " + target + " already closed");
    }
    line.append('\n');
    try {
      out.append(line);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write trace " + target + ": " + e.getMessage(), e);
    }
  }

  private static String comm(String s) {
    if (s == null || s.isEmpty()) {
      return "<unknown>";
    }
    for (int i = 0; i < s.length(); i++) {
      if (Character.isWhitespace(s.charAt(i))) {
        return s.replaceAll("\\s", "_");
      }
    }
    return s;
  }

  private static int digits(long v) {
    return Long.toString(v).length();
  }

  private static void pad(StringBuilder b, long v, int width) {
    for (int i = digits(v); i < width; i++) {
      b.append('0');
    }
    b.append(v);
  }
}
