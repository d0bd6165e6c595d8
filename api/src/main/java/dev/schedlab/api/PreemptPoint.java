package dev.schedlab.api;

/** The kinds of preemption point in kernel-mode execution (section 1.6 of the model). */
public enum PreemptPoint {
  /** Return from syscall, exception or IRQ to user mode ({@code exit_to_user_mode_loop}). */
  EXIT_TO_USER,
  /** Return from an IRQ to kernel mode ({@code irqentry_exit_cond_resched}). */
  IRQ_EXIT_KERNEL,
  /** {@code preempt_enable()} dropping the preempt count to zero. */
  PREEMPT_ENABLE,
  /** An explicit {@code cond_resched()}. */
  COND_RESCHED,
  /** A {@code might_sleep()} / {@code might_resched()} annotation. */
  MIGHT_RESCHED
}
