package dev.schedlab.engine.config;

import java.util.Locale;

/**
 * A named kernel lock ({@code workload.locks}): its kind and how many instances exist. The name is
 * the lock class of {@code /proc/lock_stat}: every instance of {@code zone->lock} counts under it.
 *
 * @param name lock class name, for example {@code zone->lock}
 * @param kind what kind of lock
 * @param scope one instance for the machine, per NUMA node, per CPU or per process (mm)
 */
public record LockSpec(String name, Kind kind, Scope scope) {
  /** The kernel lock types (kernel/locking/). */
  public enum Kind {
    /** {@code spinlock_t}: a queued spinlock; under PREEMPT_RT a sleeping rtmutex with PI. */
    SPINLOCK,
    /** {@code raw_spinlock_t}: a queued spinlock on every kernel. */
    RAW_SPINLOCK,
    /**
     * {@code struct mutex}: optimistic spinning, then a wait queue; an rtmutex under PREEMPT_RT.
     */
    MUTEX,
    /** {@code struct rw_semaphore}: shared readers, exclusive writers, writers not starved. */
    RWSEM,
    /**
     * {@code struct rt_mutex} on every kernel (kernel/locking/rtmutex.c): adaptive spinning, a wait
     * list by priority, priority inheritance; behind a PI futex ({@code futex_lock_pi()}).
     */
    RT_MUTEX;

    /** The scenario spelling ({@code raw_spinlock}). */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Whether the kind spins on every kernel (the waiter never sleeps). */
    public boolean spinning(boolean preemptRt) {
      return this == RAW_SPINLOCK || (this == SPINLOCK && !preemptRt);
    }
  }

  /** Which instance a task takes. */
  public enum Scope {
    /** One lock for the machine. */
    MACHINE,
    /** One per NUMA node: the node of the CPU the task runs on (zone->lock, lruvec->lru_lock). */
    NODE,
    /** One per CPU: the CPU the task runs on (pcp->lock). */
    CPU,
    /** One per process: the task's mm (mmap_lock, page-table locks). */
    PROCESS;

    /** The scenario spelling. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A machine-wide lock. */
  public LockSpec(String name, Kind kind) {
    this(name, kind, Scope.MACHINE);
  }
}
