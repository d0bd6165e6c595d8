package dev.schedlab.api.hook;

import dev.schedlab.api.view.TaskView;

/**
 * H18: the PELT update's policy decisions, consulted by a class that tracks load (the fair class,
 * through {@link dev.schedlab.api.SchedServices#hook}): the util_est EWMA a task keeps at a
 * sleeping dequeue. Since API 1.2.0.
 */
@FunctionalInterface
public interface PeltHook {
  /** Mainline (v6.8): keep mainline's EWMA. */
  PeltHook MAINLINE = (p, ewma, dequeued, runnable, capacity, mainline) -> mainline;

  /**
   * {@code util_est_update()}: the task's new util_est.
   *
   * @param ewma the util_est before this dequeue
   * @param dequeued the task's util_avg at the dequeue
   * @param runnable the task's runnable_avg
   * @param capacity its CPU's {@code arch_scale_cpu_capacity()}
   * @param mainline what mainline sets
   */
  long utilEst(TaskView p, long ewma, long dequeued, long runnable, long capacity, long mainline);
}
