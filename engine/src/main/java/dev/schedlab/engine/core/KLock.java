package dev.schedlab.engine.core;

import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * One lock instance (a {@code zone->lock} of one node, the {@code mmap_lock} of one mm): its owner
 * or readers, the tasks spinning for it in arrival order (the qspinlock MCS queue, or the
 * optimistic spinners of a mutex or rwsem), the tasks sleeping on its wait list, and the cache line
 * of its lock word. The mechanism is {@link Locks}.
 */
final class KLock {
  final LockClass cls;

  /** Address printed by the lock tracepoints (stable per class and instance). */
  final long addr;

  /** The lock word: taken, released and spun on, so each handoff moves it between CPUs. */
  final CacheLine line;

  /** Exclusive holder (spinlock, mutex, rwsem writer), or a woken waiter it was handed to. */
  @Nullable Task owner;

  /** Readers holding an rw_semaphore. */
  int readers;

  final ArrayDeque<Task> spinners = new ArrayDeque<>();

  /** Wait list: FIFO, or by priority for an rtmutex (rt_mutex_waiter_less()). */
  final ArrayDeque<Task> sleepers = new ArrayDeque<>();

  /** The CPU that took the lock last, for lock_stat's bounces; -1 before the first. */
  int lastCpu = -1;

  /**
   * Cache lines of the data the lock protects that critical sections write (an LRU list head, a
   * shared counter), created as paths ask for them; line {@code i} is the same line for every path.
   */
  private CacheLine[] data = new CacheLine[0];

  private final Cpu home;

  KLock(LockClass cls, long addr, Cpu home) {
    this.cls = cls;
    this.addr = addr;
    this.line = new CacheLine(home);
    this.home = home;
  }

  /** {@code c}, now holding the lock, writes the first {@code n} data lines; returns its wait. */
  long writeData(Cpu c, int n, Interrupts irqs) {
    if (n > data.length) {
      int old = data.length;
      data = java.util.Arrays.copyOf(data, n);
      for (int i = old; i < n; i++) {
        data[i] = new CacheLine(home);
      }
    }
    long wait = 0;
    for (int i = 0; i < n; i++) {
      wait += data[i].write(c, irqs);
    }
    return wait;
  }

  boolean free() {
    return owner == null && readers == 0;
  }

  @Override
  public String toString() {
    return cls.name;
  }
}
