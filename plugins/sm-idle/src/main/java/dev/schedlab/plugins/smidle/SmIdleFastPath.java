package dev.schedlab.plugins.smidle;

import dev.schedlab.api.SchedMode;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * The SM_IDLE idle re-entry fast path of {@code __schedule()}.
 *
 * <p>Models: When {@code schedule_idle()} calls {@code __schedule(SM_IDLE)} and nothing was
 * enqueued on the runqueue ({@code !rq->nr_running}), {@code next = prev} (the idle task) without
 * {@code pick_next_task()}: no pick, no newidle balance, no put_prev/set_next. The runqueue lock,
 * the clock update and the NEED_RESCHED clear still happen (the engine's {@code cost.sched_base}).
 * A remote wakeup queued through the wake list makes {@code nr_running > 0}, so the normal pick
 * runs.
 *
 * <p>Does not model: The {@code !scx_enabled()} condition mainline added later (no sched_ext BPF
 * scheduler runs in the engine), and the RCU/tracepoint differences of {@code preempt = sched_mode
 * > SM_NONE}.
 *
 * <p>Kernel reference: tip commit 3dcac251b066 "sched/core: Introduce SM_IDLE and an idle re-entry
 * fast-path in __schedule()" (v6.12);
 * https://lore.kernel.org/r/20240809092240.6921-1-kprateek.nayak@amd.com
 */
final class SmIdleFastPath implements PickOverrideHook {
  @Override
  public @Nullable TaskView pickOverride(CpuView cpu, SchedMode mode, TaskView prev, RqView rq) {
    if (mode == SchedMode.IDLE && rq.nrRunning() == 0) {
      return prev;
    }
    return null;
  }
}
