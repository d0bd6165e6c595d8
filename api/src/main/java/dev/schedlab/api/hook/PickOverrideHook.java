package dev.schedlab.api.hook;

import dev.schedlab.api.SchedMode;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * H1: called in {@code __schedule()} after the block/deactivate stage and before {@code
 * pick_next_task()}. A non-null result becomes {@code next} and skips the pick stage and its costs
 * (pick, newidle balance, put_prev/set_next). Mainline before v6.12 has no override.
 */
@FunctionalInterface
public interface PickOverrideHook {
  /** Mainline (v6.11): never override. */
  PickOverrideHook MAINLINE = (cpu, mode, prev, rq) -> null;

  /** The task to run without picking, or null to pick normally. */
  @Nullable TaskView pickOverride(CpuView cpu, SchedMode mode, TaskView prev, RqView rq);
}
