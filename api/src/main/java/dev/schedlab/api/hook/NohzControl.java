package dev.schedlab.api.hook;

/**
 * The global nohz idle-balance state ({@code static struct nohz} in fair.c) and the per-runqueue
 * {@code nohz_flags}, as a plugin may read and change them in hooks H6-H10.
 */
public interface NohzControl {
  /** {@code NOHZ_BALANCE_KICK}: run load balance on behalf of idle CPUs. */
  int BALANCE_KICK = 1;

  /** {@code NOHZ_STATS_KICK}: update blocked load of idle CPUs. */
  int STATS_KICK = 2;

  /** {@code NOHZ_NEWILB_KICK}: update blocked load locally before idling. */
  int NEWILB_KICK = 4;

  /** {@code NOHZ_NEXT_KICK}: refresh {@code nohz.next_balance}. */
  int NEXT_KICK = 8;

  /** {@code NOHZ_KICK_MASK}. */
  int KICK_MASK = BALANCE_KICK | STATS_KICK | NEXT_KICK;

  /** Whether {@code cpu} is in {@code nohz.idle_cpus_mask}. */
  boolean inIdleMask(int cpu);

  /**
   * Adds {@code cpu} to the idle mask, sets {@code rq->nohz_tick_stopped}, bumps {@code nr_cpus}.
   */
  void addToIdleMask(int cpu);

  /** {@code nohz.nr_cpus}. */
  int nrCpus();

  /** {@code nohz.needs_update}. */
  boolean needsUpdate();

  /** Sets {@code nohz.needs_update}. */
  void setNeedsUpdate(boolean value);

  /** {@code nohz.has_blocked_load}. */
  boolean hasBlockedLoad();

  /** Sets {@code nohz.has_blocked_load}. */
  void setHasBlockedLoad(boolean value);

  /** Sets {@code rq->has_blocked_load} of {@code cpu}. */
  void setRqHasBlockedLoad(int cpu, boolean value);

  /** {@code nohz.next_balance}, jiffies. */
  long nextBalance();

  /** {@code nohz.next_blocked}, jiffies. */
  long nextBlocked();

  /** {@code rq->next_balance} of {@code cpu}, jiffies. */
  long rqNextBalance(int cpu);

  /** {@code rq->avg_idle} of {@code cpu}, ns. */
  long rqAvgIdleNs(int cpu);

  /** {@code nohz_flags(cpu)}. */
  int flags(int cpu);

  /** {@code atomic_or(bits, nohz_flags(cpu))}. */
  void orFlags(int cpu, int bits);

  /**
   * {@code atomic_fetch_andnot(bits, nohz_flags(cpu))}: clears {@code bits}, returns the old flags.
   */
  int fetchAndClearFlags(int cpu, int bits);

  /** Whether {@code cpu}'s current task has NEED_RESCHED set. */
  boolean needResched(int cpu);

  /** H10: {@code _nohz_idle_balance(cpu, flags)}, run on {@code cpu} now, at its CPU cost. */
  void idleBalance(int cpu, int flags);
}
