package dev.schedlab.report.timeline;

import java.util.Arrays;

/**
 * A downsampled timeline: each CPU's time cut into equal columns, each keeping how long every
 * category ran in it and how many interrupts it took. Categories are the ten task colours (task
 * group modulo 10) and up to eight idle states. When an event falls past the last column, pairs of
 * columns merge and the column width doubles, so the horizon need not be known exactly.
 */
public final class Bins {
  /** Task colour categories: 0 .. TASK_COLORS - 1. */
  public static final int TASK_COLORS = 10;

  /** Idle-state categories follow the task colours; deeper states share the last. */
  public static final int IDLE_STATES = 8;

  static final int CATS = TASK_COLORS + IDLE_STATES;

  /** Columns over all CPUs together: bounds the page size. */
  static final int BUDGET = 48_000;

  private final int columns;
  private long width;
  private double[][] time;
  private int[][] irqs;

  Bins(int nrCpus, long horizonNs) {
    columns = Math.max(120, Math.min(1000, BUDGET / Math.max(1, nrCpus)));
    width = Math.max(1, (horizonNs + columns - 1) / columns);
    time = new double[0][];
    irqs = new int[0][];
    ensureCpus(nrCpus);
  }

  void ensureCpus(int n) {
    int old = time.length;
    if (n <= old) {
      return;
    }
    time = Arrays.copyOf(time, n);
    irqs = Arrays.copyOf(irqs, n);
    for (int c = old; c < n; c++) {
      time[c] = new double[columns * CATS];
      irqs[c] = new int[columns];
    }
  }

  void add(Timeline.Slice s) {
    while (s.end() > (long) columns * width || s.start() >= (long) columns * width) {
      merge();
    }
    if (s.kind() == Timeline.Kind.IRQ) {
      irqs[s.cpu()][(int) (s.start() / width)]++;
      return;
    }
    int cat =
        s.kind() == Timeline.Kind.TASK
            ? s.category() % TASK_COLORS
            : TASK_COLORS + Math.min(s.category(), IDLE_STATES - 1);
    double[] t = time[s.cpu()];
    long a = s.start();
    while (a < s.end()) {
      int col = (int) (a / width);
      long b = Math.min(s.end(), (col + 1L) * width);
      t[col * CATS + cat] += b - a;
      a = b;
    }
  }

  private void merge() {
    for (int c = 0; c < time.length; c++) {
      double[] t = new double[columns * CATS];
      int[] q = new int[columns];
      for (int col = 0; col < columns; col++) {
        for (int k = 0; k < CATS; k++) {
          t[(col / 2) * CATS + k] += time[c][col * CATS + k];
        }
        q[col / 2] += irqs[c][col];
      }
      time[c] = t;
      irqs[c] = q;
    }
    width *= 2;
  }

  /** Number of columns per CPU. */
  public int columns() {
    return columns;
  }

  /** Width of a column, ns. */
  public long width() {
    return width;
  }

  /** The category that ran longest in column {@code col} of {@code cpu}, or -1 if none ran. */
  public int dominant(int cpu, int col) {
    int best = -1;
    double most = 0;
    for (int k = 0; k < CATS; k++) {
      double v = time[cpu][col * CATS + k];
      if (v > most) {
        most = v;
        best = k;
      }
    }
    return best;
  }

  /** Interrupts in column {@code col} of {@code cpu}. */
  public int irqs(int cpu, int col) {
    return irqs[cpu][col];
  }
}
