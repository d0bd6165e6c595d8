package dev.schedlab.api.hook;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;

/**
 * H14: {@code ttwu_runnable()}, the wakeup of a task that is still queued (a task blocking but not
 * yet dequeued, a delayed dequeue, or a task spinning before idle). The engine sets the task
 * RUNNING and, when it is not running, calls {@code wakeup_preempt()}; this hook observes it.
 */
@FunctionalInterface
public interface RunnableWakeHook {
  /** Mainline: nothing beyond the engine's {@code ttwu_runnable()}. */
  RunnableWakeHook MAINLINE = (cpu, task, services) -> {};

  /** {@code task} on {@code cpu} was woken while still queued. */
  void onRunnableWake(CpuView cpu, TaskView task, SchedServices services);
}
