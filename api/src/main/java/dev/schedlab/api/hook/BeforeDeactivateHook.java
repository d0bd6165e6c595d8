package dev.schedlab.api.hook;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * H2: called in {@code __schedule()} when {@code prev} is blocking (state not RUNNING, no signal),
 * before {@code deactivate_task()}. A positive result spins: the runqueue lock is dropped, {@code
 * prev} stays current and queued and the CPU burns time until {@code prev} is woken, NEED_RESCHED
 * is set, or the limit passes; then the block stage is evaluated again.
 */
@FunctionalInterface
public interface BeforeDeactivateHook {
  /** Mainline: always proceed to deactivate. */
  BeforeDeactivateHook MAINLINE = (cpu, prev, rq) -> 0L;

  /** Spin limit in ns, or 0 to proceed with the normal sleep path. */
  long spinLimitNs(CpuView cpu, TaskView prev, RqView rq);
}
