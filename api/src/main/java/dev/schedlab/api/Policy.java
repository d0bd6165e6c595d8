package dev.schedlab.api;

/**
 * Scheduling policies, as in {@code sched_setattr(2)}. Each task has one; the host maps it to the
 * highest-ranked loaded {@link SchedulingClass} that {@linkplain SchedulingClass#handles handles}
 * it.
 */
public enum Policy {
  /** The per-CPU stopper thread ({@code stop_sched_class}). */
  STOP,
  /** {@code SCHED_DEADLINE}: CBS plus EDF. */
  DEADLINE,
  /** {@code SCHED_FIFO}. */
  FIFO,
  /** {@code SCHED_RR}. */
  RR,
  /** {@code SCHED_NORMAL} (a.k.a. SCHED_OTHER). */
  NORMAL,
  /** {@code SCHED_BATCH}: fair, never wakeup-preempts. */
  BATCH,
  /** {@code SCHED_IDLE}: fair with minimal weight. */
  IDLE,
  /** {@code SCHED_EXT}: handled by an extension class when one is loaded, else by fair. */
  EXT
}
