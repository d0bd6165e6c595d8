package dev.schedlab.engine.core;

import org.jspecify.annotations.Nullable;

/**
 * A task's lock state: the locks it holds (with when it took them), the preempt and IRQ-off depth
 * its spinlocks add ({@code preempt_count}, {@code local_irq_save}), and the lock it waits for.
 */
final class TaskLocks {
  /** Spinlocks held or being spun on: preemption is off while this is above zero. */
  int preemptCount;

  /** {@code _irqsave} spinlocks held or being spun on: interrupts are off while above zero. */
  int irqsOff;

  // Made at the first lock the task takes: most tasks never take one, and a task's memory is
  // budgeted (docs/benchmarks.md, "Memory per task").
  KLock[] held = NO_LOCKS;
  long[] heldSince = NO_TIMES;
  boolean[] heldRead = NO_FLAGS;
  boolean[] heldIrqs = NO_FLAGS;
  int nrHeld;

  private static final KLock[] NO_LOCKS = {};
  private static final long[] NO_TIMES = {};
  private static final boolean[] NO_FLAGS = {};

  /** The lock being waited for (spinning or sleeping), or null. */
  @Nullable KLock waiting;

  /** The wait is a spin whose end is not known yet (the CPU spins until a handoff or an abort). */
  boolean spinWaiting;

  /** The lock was handed to this task (or, for readers, granted). */
  boolean granted;

  /** When the wait began (lock_contended). */
  long waitStart;

  /** Whether this task currently spins on {@link #waiting} (as opposed to sleeping). */
  boolean spinning;

  /** The wait is a {@code down_read()}. */
  boolean waitRead;

  /** Protected-data lines the awaited critical section writes ({@code Op.lockLines}). */
  int waitLines;

  /** Of the handoff's delay, the part spent on those lines, with the lock already held. */
  long grantData;

  void add(KLock l, long since, boolean read, boolean irqs) {
    if (nrHeld == held.length) {
      int size = Math.max(4, nrHeld * 2);
      held = java.util.Arrays.copyOf(held, size);
      heldSince = java.util.Arrays.copyOf(heldSince, size);
      heldRead = java.util.Arrays.copyOf(heldRead, size);
      heldIrqs = java.util.Arrays.copyOf(heldIrqs, size);
    }
    held[nrHeld] = l;
    heldSince[nrHeld] = since;
    heldRead[nrHeld] = read;
    heldIrqs[nrHeld] = irqs;
    nrHeld++;
  }

  /** Index of the most recently taken held instance of {@code cls}, or -1. */
  int find(LockClass cls) {
    for (int i = nrHeld - 1; i >= 0; i--) {
      if (held[i].cls == cls) {
        return i;
      }
    }
    return -1;
  }

  void remove(int i) {
    nrHeld--;
    for (int j = i; j < nrHeld; j++) {
      held[j] = held[j + 1];
      heldSince[j] = heldSince[j + 1];
      heldRead[j] = heldRead[j + 1];
      heldIrqs[j] = heldIrqs[j + 1];
    }
    held[nrHeld] = null;
  }
}
