package ${package};

import dev.schedlab.api.SchedMode;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * Hook H1, {@code __schedule()}'s pick: a non-null result becomes {@code next} and skips
 * {@code pick_next_task()}. It starts as mainline (never override), so the plugin changes nothing
 * yet: put here what your patch changes, and declare in the descriptor every hook point you
 * override (docs/authoring.md lists them).
 *
 * <p>Models: nothing beyond mainline yet: say what the patch changes here.
 *
 * <p>Does not model: what the patch does that this override leaves out.
 *
 * <p>Kernel reference: kernel/sched/core.c {@code __schedule()}.
 */
final class ${className}Hook implements PickOverrideHook {
  @Override
  public TaskView pickOverride(CpuView cpu, SchedMode mode, TaskView prev, RqView rq) {
    return PickOverrideHook.MAINLINE.pickOverride(cpu, mode, prev, rq);
  }
}
