package dev.schedlab.engine.core;

/**
 * A process address space with its concurrency-ID state (mm_cid, section 3.1): which CPUs hold an
 * allocated cid, when each last ran the mm, and {@code mm_cid_next_scan}.
 */
final class Mm {
  /** The flag of a {@link #pcpu} slot whose CPU holds an allocated cid. */
  private static final long ALLOCATED = Long.MIN_VALUE;

  final int id;

  /**
   * Slots made at creation: the kernel's {@code alloc_percpu()} gives an mm one per CPU up front,
   * and so does the model up to this many CPUs (1 KiB, within a task's memory budget of 2 KiB), so
   * the run allocates nothing when a task first reaches a CPU; on a larger machine the array grows
   * to the highest CPU used instead.
   */
  static final int PRESIZED_CPUS = 128;

  /**
   * Per CPU, up to the machine's CPUs or, on a machine of more than {@link #PRESIZED_CPUS}, up to
   * the highest CPU the mm ran on (most processes run on a few CPUs of a large machine): when a
   * task of this mm last ran there ({@code pcpu_cid->time}), with {@link #ALLOCATED} set while that
   * CPU's cid is allocated ({@code mm_cidmask}). One array, so a context switch touches one slot of
   * it.
   */
  private long[] pcpu;

  /** CPUs with an allocated cid, {@link #recentCpu} aside until it is written back. */
  private int nrAllocated;

  /**
   * The CPU a task of this mm last switched in on and when, not yet written to {@link #pcpu}, or
   * -1. In the kernel the slot ({@code this_cpu_ptr(mm->pcpu_cid)}) sits in that CPU's own per-CPU
   * area, warm from its recent switches; the model's slots are the mm's, so the latest one is kept
   * here: a task switching back in where its mm last ran touches only the mm. Written back when
   * another CPU runs the mm or before anything reads the slots, so every read sees what the kernel
   * would.
   */
  private int recentCpu = -1;

  private long recentAt;

  /** {@code mm->mm_cid_next_scan}, jiffies. */
  long nextScan;

  Mm(int id, long nextScan, int nrCpus) {
    this.id = id;
    this.nextScan = nextScan;
    this.pcpu = new long[nrCpus <= PRESIZED_CPUS ? nrCpus : 0];
  }

  /** A task of this mm runs on {@code cpu} ({@code mm_cid_get}). */
  void used(int cpu, long now) {
    if (cpu != recentCpu) {
      writeBack();
      recentCpu = cpu;
    }
    recentAt = now;
  }

  /** Writes {@link #recentCpu}'s switch-in to its slot, allocating its cid. */
  private void writeBack() {
    int cpu = recentCpu;
    if (cpu < 0) {
      return;
    }
    recentCpu = -1;
    if (cpu >= pcpu.length) {
      pcpu = java.util.Arrays.copyOf(pcpu, Math.max(cpu + 1, 2 * pcpu.length));
    }
    if (pcpu[cpu] >= 0) {
      nrAllocated++;
    }
    pcpu[cpu] = recentAt | ALLOCATED;
  }

  /** The lowest CPU at or above {@code from} holding an allocated cid, or -1. */
  int nextAllocated(int from) {
    writeBack();
    for (int c = from; c < pcpu.length; c++) {
      if (pcpu[c] < 0) {
        return c;
      }
    }
    return -1;
  }

  /** Drops {@code cpu}'s allocated cid. */
  void release(int cpu) {
    writeBack();
    if (pcpu[cpu] < 0) {
      pcpu[cpu] &= ~ALLOCATED;
      nrAllocated--;
    }
  }

  /** When a task of this mm last ran on {@code cpu}, 0 if never. */
  long lastUsed(int cpu) {
    writeBack();
    return cpu < pcpu.length ? pcpu[cpu] & ~ALLOCATED : 0;
  }

  /** Number of allocated cids ({@code cpumask_weight(mm_cidmask(mm))}). */
  int cidWeight() {
    writeBack();
    return nrAllocated;
  }
}
