package dev.schedlab.api.hook;

import dev.schedlab.api.view.TaskView;

/**
 * H16: {@code select_task_rq()}, after the task's class chose a CPU for a wakeup or a new task
 * (with more than one allowed CPU). A placement patch returns its own choice; it must be a CPU in
 * the task's affinity. Mainline keeps the class's choice. Since API 1.2.0.
 */
@FunctionalInterface
public interface SelectTaskRqHook {
  /** Mainline: the class's choice. */
  SelectTaskRqHook MAINLINE = (p, prevCpu, wakerCpu, wakeFlags, selected) -> selected;

  /**
   * The CPU to queue {@code p} on.
   *
   * @param prevCpu the CPU {@code p} last ran on
   * @param wakerCpu the CPU doing the wakeup or the fork
   * @param wakeFlags {@link dev.schedlab.api.SchedFlags} WF_* bits (WF_TTWU, WF_SYNC, WF_FORK)
   * @param selected the class's choice ({@code select_task_rq_fair()} for fair tasks)
   */
  int selectTaskRq(TaskView p, int prevCpu, int wakerCpu, int wakeFlags, int selected);
}
