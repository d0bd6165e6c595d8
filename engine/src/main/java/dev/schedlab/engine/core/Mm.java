package dev.schedlab.engine.core;

import java.util.BitSet;

/**
 * A process address space with its concurrency-ID state (mm_cid, section 3.1): which CPUs hold an
 * allocated cid, when each last ran the mm, and {@code mm_cid_next_scan}.
 */
final class Mm {
  final int id;

  /** CPUs whose per-CPU cid of this mm is allocated ({@code mm_cidmask} as CPUs). */
  final BitSet allocated = new BitSet();

  /**
   * Last time a task of this mm ran on each CPU ({@code pcpu_cid->time}), up to the highest CPU it
   * ran on (grown on use: most processes run on a few CPUs of a large machine).
   */
  private long[] lastUsed = new long[0];

  /** {@code mm->mm_cid_next_scan}, jiffies. */
  long nextScan;

  Mm(int id, long nextScan) {
    this.id = id;
    this.nextScan = nextScan;
  }

  /** A task of this mm runs on {@code cpu} ({@code mm_cid_get}). */
  void used(int cpu, long now) {
    allocated.set(cpu);
    if (cpu >= lastUsed.length) {
      lastUsed = java.util.Arrays.copyOf(lastUsed, Math.max(cpu + 1, 2 * lastUsed.length));
    }
    lastUsed[cpu] = now;
  }

  /** When a task of this mm last ran on {@code cpu}, 0 if never. */
  long lastUsed(int cpu) {
    return cpu < lastUsed.length ? lastUsed[cpu] : 0;
  }

  /** Number of allocated cids ({@code cpumask_weight(mm_cidmask(mm))}). */
  int cidWeight() {
    return allocated.cardinality();
  }
}
