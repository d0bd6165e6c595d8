package dev.schedlab.report.timeline;

import dev.schedlab.engine.output.TraceSink;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What each CPU did over time, built from trace events: task slices (from {@code sched_switch}),
 * idle-state slices (from {@code cpu_idle} enter and exit) and interrupts (instants, from {@code
 * irq_handler_entry} and {@code ipi_entry}). A {@link TraceSink}, so a run can feed it directly and
 * {@link FtraceReader} can feed it from an ftrace text file, with the same result.
 *
 * <p>Up to {@link #EXACT_LIMIT} slices are kept one by one. Past that the timeline is downsampled:
 * each CPU's time is cut into {@link Bins} columns that keep, per category (task group or idle
 * state), how long it ran, and the number of interrupts; memory and page size stay bounded however
 * long the run (a 10 s run of 128 CPUs draws in well under 5 MB).
 */
public final class Timeline implements TraceSink {
  /** Slices drawn one by one up to this many (tasks, idle states and interrupts together). */
  public static final int EXACT_LIMIT = 15_000;

  /** Kind of a slice. */
  public enum Kind {
    TASK,
    IDLE,
    IRQ
  }

  /**
   * One slice.
   *
   * @param cpu CPU
   * @param start start, ns
   * @param end end, ns (equal to start for an interrupt)
   * @param kind what it is
   * @param category task group index, idle state index, or 0 for interrupts
   * @param label task "comm (pid N)" or interrupt name
   */
  public record Slice(
      int cpu, long start, long end, Kind kind, int category, @Nullable String label) {}

  private final long horizon;
  private final List<Slice> slices = new ArrayList<>();
  private final Map<String, Integer> groups = new LinkedHashMap<>();
  private final Map<Kind, Long> counts = new EnumMap<>(Kind.class);
  private int nrCpus;
  private long[] taskStart = new long[0];
  private String[] taskLabel = new String[0];
  private int[] taskGroup = new int[0];
  private long[] idleStart = new long[0];
  private int[] idleState = new int[0];
  private int maxIdleState = -1;
  private long end;
  private @Nullable Bins bins;
  private boolean finished;

  /** A timeline for {@code nrCpus} CPUs (more are added if seen) over about {@code horizonNs}. */
  public Timeline(int nrCpus, long horizonNs) {
    this.horizon = Math.max(1, horizonNs);
    ensure(Math.max(1, nrCpus) - 1);
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
    ensure(cpu);
    closeTask(cpu, t);
    if (nextPid != 0) {
      taskStart[cpu] = t;
      taskLabel[cpu] = nextComm + " (pid " + nextPid + ")";
      taskGroup[cpu] = groups.computeIfAbsent(group(nextComm), g -> groups.size());
    }
    end = Math.max(end, t);
  }

  @Override
  public void cpuIdle(long t, int cpu, String curComm, int curPid, int state) {
    ensure(cpu);
    closeIdle(cpu, t);
    if (state >= 0) {
      idleStart[cpu] = t;
      idleState[cpu] = state;
      maxIdleState = Math.max(maxIdleState, state);
    }
    end = Math.max(end, t);
  }

  @Override
  public void irqEntry(long t, int cpu, String curComm, int curPid, int irq, String name) {
    interrupt(t, cpu, name);
  }

  @Override
  public void ipiEntry(long t, int cpu, String curComm, int curPid, String reason) {
    interrupt(t, cpu, reason);
  }

  private void interrupt(long t, int cpu, String name) {
    ensure(cpu);
    add(new Slice(cpu, t, t, Kind.IRQ, 0, name));
    end = Math.max(end, t);
  }

  /** Closes every open slice at {@code endNs} (or the last event, if later); idempotent. */
  public Timeline finish(long endNs) {
    if (!finished) {
      end = Math.max(end, endNs);
      for (int c = 0; c < nrCpus; c++) {
        closeTask(c, end);
        closeIdle(c, end);
      }
      finished = true;
    }
    return this;
  }

  private void closeTask(int cpu, long t) {
    if (taskLabel[cpu] != null) {
      add(new Slice(cpu, taskStart[cpu], t, Kind.TASK, taskGroup[cpu], taskLabel[cpu]));
      taskLabel[cpu] = null;
    }
  }

  private void closeIdle(int cpu, long t) {
    if (idleState[cpu] >= 0) {
      add(new Slice(cpu, idleStart[cpu], t, Kind.IDLE, idleState[cpu], null));
      idleState[cpu] = -1;
    }
  }

  private void add(Slice s) {
    counts.merge(s.kind(), 1L, Long::sum);
    if (bins != null) {
      bins.add(s);
      return;
    }
    slices.add(s);
    if (slices.size() > EXACT_LIMIT) {
      bins = new Bins(nrCpus, horizon);
      slices.forEach(bins::add);
      slices.clear();
    }
  }

  private void ensure(int cpu) {
    if (cpu < 0) {
      throw new IllegalArgumentException("negative CPU " + cpu);
    }
    if (cpu < nrCpus) {
      return;
    }
    int n = cpu + 1;
    taskStart = java.util.Arrays.copyOf(taskStart, n);
    taskLabel = java.util.Arrays.copyOf(taskLabel, n);
    taskGroup = java.util.Arrays.copyOf(taskGroup, n);
    idleStart = java.util.Arrays.copyOf(idleStart, n);
    idleState = java.util.Arrays.copyOf(idleState, n);
    java.util.Arrays.fill(idleState, nrCpus, n, -1);
    nrCpus = n;
    if (bins != null) {
      bins.ensureCpus(n);
    }
  }

  /** The task group of a comm: the name without a trailing "/N" instance number. */
  static String group(String comm) {
    int slash = comm.lastIndexOf('/');
    if (slash > 0
        && slash < comm.length() - 1
        && comm.substring(slash + 1).chars().allMatch(Character::isDigit)) {
      return comm.substring(0, slash);
    }
    return comm;
  }

  /** Number of CPUs. */
  public int nrCpus() {
    return nrCpus;
  }

  /** End of the timeline, ns. */
  public long end() {
    return end;
  }

  /** Whether the slices were downsampled into columns. */
  public boolean downsampled() {
    return bins != null;
  }

  /** The slices, when not downsampled (empty otherwise), in the order they closed. */
  public List<Slice> slices() {
    return List.copyOf(slices);
  }

  /** The columns, when downsampled, else null. */
  public @Nullable Bins bins() {
    return bins;
  }

  /** Task groups in order of first appearance (their index is their category). */
  public List<String> groups() {
    return List.copyOf(groups.keySet());
  }

  /** The deepest idle state seen, or -1. */
  public int maxIdleState() {
    return maxIdleState;
  }

  /** Number of slices of {@code kind} seen (also when downsampled). */
  public long count(Kind kind) {
    return counts.getOrDefault(kind, 0L);
  }
}
