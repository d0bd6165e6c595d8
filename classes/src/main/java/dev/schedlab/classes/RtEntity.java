package dev.schedlab.classes;

import dev.schedlab.api.view.TaskView;

/**
 * Per-task state of the RT class ({@code struct sched_rt_entity}).
 *
 * <p>Models: the priority the task is queued at and the remaining RR timeslice in ticks.
 *
 * <p>Does not model: priority inheritance, RT group entities.
 *
 * <p>Kernel reference: {@code kernel/sched/rt.c}.
 */
final class RtEntity {
  final TaskView task;

  /** Priority list the task sits in (1..99, higher runs first); fixed while queued. */
  int prio;

  /** RR ticks left ({@code rt.time_slice}); kept across sleeps like the kernel. */
  long timeSliceTicks;

  boolean onRq;
  int cpu;

  RtEntity(TaskView task, long sliceTicks) {
    this.task = task;
    this.timeSliceTicks = sliceTicks;
  }
}
