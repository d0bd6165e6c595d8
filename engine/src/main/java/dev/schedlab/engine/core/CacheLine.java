package dev.schedlab.engine.core;

/**
 * One cache line that two CPUs pass between them, with the coherence protocol reduced to what costs
 * time.
 *
 * <p>Models: a CPU waits one cache-line transfer ({@code latency.cacheline_*}) to read a line it
 * has no valid copy of, and to write a line it does not hold alone (the data comes over, or the
 * other copy is invalidated). Tracks the last writer and one other CPU with a valid copy, which is
 * exact for the two-party exchanges it is used for. The lines of a cross-CPU call ({@code
 * smp_call_function_single()}, kernel/smp.c):
 *
 * <ul>
 *   <li>the target's {@code call_single_queue} head: {@code llist_add()} on the sender, {@code
 *       llist_del_all()} on the target;
 *   <li>the call's CSD (on the waiting sender's stack): written by the sender when it fills it in,
 *       read by the target for {@code func}, written by its {@code csd_unlock()}, read by the
 *       sender's {@code csd_lock_wait()};
 *   <li>the target idle task's {@code thread_info->flags}: read by {@code set_nr_if_polling()}
 *       (written by its {@code try_cmpxchg()} when POLLING is set, and by {@code
 *       set_nr_and_not_polling()}); read and written by the idle loop all the time;
 *   <li>the target's {@code struct rq} line holding {@code rq->idle}: read by {@code
 *       call_function_single_prep_ipi()}. Up to v6.17 the same line holds {@code rq->clock} and
 *       {@code clock_update_flags}, written by every {@code update_rq_clock()} on the target
 *       (kernel/sched/sched.h; Blake Jones's 2025 patch "Reorder some fields in struct rq" moved
 *       the clock fields to their own line).
 * </ul>
 *
 * <p>Does not model: a third CPU's copy of a line (only the last writer and one reader are
 * tracked), coherence states beyond valid and invalid, and evictions: a line stays valid in a CPU's
 * cache until another CPU writes it.
 *
 * <p>Kernel reference: {@code kernel/smp.c} ({@code __smp_call_single_queue}, {@code
 * __flush_smp_call_function_queue}, {@code csd_lock_wait}), {@code kernel/sched/core.c} ({@code
 * set_nr_if_polling}, {@code call_function_single_prep_ipi}), {@code kernel/sched/sched.h} ({@code
 * struct rq}).
 */
final class CacheLine {
  /** The CPU that wrote the line last (it has a valid copy). */
  private Cpu writer;

  /** Another CPU that read the line since that write, or null. */
  private Cpu reader;

  /** A line of {@code home}'s own data, last written there. */
  CacheLine(Cpu home) {
    writer = home;
  }

  /** {@code c} reads the line; returns its wait. */
  long read(Cpu c, Interrupts irqs) {
    if (c == writer || c == reader) {
      return 0;
    }
    reader = c;
    return irqs.cacheline(c, writer);
  }

  /** {@code c} writes the line; returns its wait. */
  long write(Cpu c, Interrupts irqs) {
    Cpu other = c == writer ? reader : writer;
    writer = c;
    reader = null;
    return other == null ? 0 : irqs.cacheline(c, other);
  }

  /** {@code c} wrote the line and its wait is counted elsewhere. */
  void wroteBy(Cpu c) {
    writer = c;
    reader = null;
  }

  /** {@code c} read the line and its wait is counted elsewhere (a poll loop noticing a write). */
  void readBy(Cpu c) {
    if (c != writer) {
      reader = c;
    }
  }
}
