package dev.schedlab.api.hook;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;

/**
 * H11: called in {@code exit_to_user_mode_loop()} before the task's queued task_works run (their
 * cost is charged in the task's own context by the engine).
 */
@FunctionalInterface
public interface ExitToUserHook {
  /** Mainline: nothing beyond running the queued task_works. */
  ExitToUserHook MAINLINE = (cpu, task, services) -> {};

  /** Runs on exit to user of {@code task} on {@code cpu}. */
  void onExitToUser(CpuView cpu, TaskView task, SchedServices services);
}
