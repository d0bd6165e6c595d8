package dev.schedlab.api.hook;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;

/**
 * H5: the {@code task_tick_mm_cid()} stage of {@code sched_tick()}, run after the class's {@code
 * task_tick} and before the balance trigger. The mainline stage queues the mm concurrency-ID
 * compaction as a task_work on {@code curr} (see the engine's mm_cid model).
 */
@FunctionalInterface
public interface TickHook {
  /** Runs the stage for {@code curr} on {@code cpu}. */
  void onTick(CpuView cpu, TaskView curr, SchedServices services);
}
