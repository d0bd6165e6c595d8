package dev.schedlab.api.hook;

/**
 * The mm concurrency-ID state of processes ({@code mm->mm_cid_next_scan}, {@code mm_cidmask}) as
 * the tick's mm_cid stage (hook H5) and its deferred work may read and change it.
 */
public interface MmCidControl {
  /** {@code mm->mm_cid_next_scan} of address space {@code mmId}, jiffies. */
  long nextScan(int mmId);

  /** {@code try_cmpxchg(&mm->mm_cid_next_scan, &expected, next)}. */
  boolean tryAdvanceScan(int mmId, long expected, long next);

  /** {@code cpumask_weight(mm_cidmask(mm))}: concurrency IDs in use. */
  int cidWeight(int mmId);

  /**
   * Clears the cids unused for {@code SCHED_MM_CID_PERIOD_NS} ({@code
   * sched_mm_cid_remote_clear_old}).
   */
  void compact(int mmId);

  /** Whether {@code pid}'s compaction work is queued ({@code work->next != work}). */
  boolean workPending(int pid);

  /** Marks {@code pid}'s compaction work queued or done. */
  void setWorkPending(int pid, boolean pending);

  /** Counts a compaction scan of {@code costNs} that ran on {@code cpu} (metrics: where it ran). */
  void recordScan(int cpu, long costNs);
}
