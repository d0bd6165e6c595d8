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
  /** Last time a task of this mm ran on each CPU ({@code pcpu_cid->time}). */
  final long[] lastUsed;
  /** {@code mm->mm_cid_next_scan}, jiffies. */
  long nextScan;

  Mm(int id, int nrCpus, long nextScan) {
    this.id = id;
    this.lastUsed = new long[nrCpus];
    this.nextScan = nextScan;
  }

  /** A task of this mm runs on {@code cpu} ({@code mm_cid_get}). */
  void used(int cpu, long now) {
    allocated.set(cpu);
    lastUsed[cpu] = now;
  }

  /** Number of allocated cids ({@code cpumask_weight(mm_cidmask(mm))}). */
  int cidWeight() {
    return allocated.cardinality();
  }
}
