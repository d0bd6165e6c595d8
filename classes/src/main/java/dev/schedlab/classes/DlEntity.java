package dev.schedlab.classes;

import dev.schedlab.api.TimerHandle;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * Per-task state of the deadline class ({@code struct sched_dl_entity}) and the CBS rules on it.
 *
 * <p>Models: remaining runtime, absolute deadline, throttling, the CBS wakeup rule ({@code
 * update_dl_entity}), the constrained-deadline revised wakeup, and replenishment (which drops a
 * yielded period's leftover runtime).
 *
 * <p>Does not model: DL_SCALE-free exact arithmetic (the overflow test shifts by 10 like the
 * kernel), PI boosting, GRUB reclaiming, dl_server, overrun signalling.
 *
 * <p>Kernel reference: {@code kernel/sched/deadline.c} ({@code update_dl_entity}, {@code
 * dl_entity_overflow}, {@code update_dl_revised_wakeup}, {@code replenish_dl_entity}).
 */
final class DlEntity implements DeadlineArray.Node {
  private static final int DL_SCALE = 10;

  final TaskView task;
  long dlRuntime;
  long dlDeadline;
  long dlPeriod;

  /** Remaining runtime in the current period, ns. */
  long runtime;

  /** Absolute deadline, ns. */
  long deadline;

  boolean throttled;

  /** {@code dl_yielded}: the task gave up the rest of this period's runtime. */
  boolean yielded;

  boolean inTree;
  boolean onRq;
  boolean fresh = true;

  /** CPU of the runqueue the task is queued on (or last was). */
  int cpu;

  /** Replenishment timer, created at the first throttle and re-armed after. */
  @Nullable TimerHandle timer;

  DlEntity(TaskView task) {
    this.task = task;
    refreshParams();
  }

  void refreshParams() {
    dlRuntime = task.dlRuntimeNs();
    dlDeadline = task.dlDeadlineNs();
    long period = task.dlPeriodNs();
    dlPeriod = period > 0 ? period : dlDeadline;
  }

  @Override
  public long sortKey() {
    return deadline;
  }

  /** {@code replenish_dl_new_period()}. */
  void newPeriod(long now) {
    deadline = now + dlDeadline;
    runtime = dlRuntime;
  }

  /** {@code dl_entity_overflow()}: runtime / (deadline - now) > dl_runtime / dl_deadline. */
  boolean overflow(long now) {
    long left = (dlDeadline >> DL_SCALE) * (runtime >> DL_SCALE);
    long right = ((deadline - now) >> DL_SCALE) * (dlRuntime >> DL_SCALE);
    return right - left < 0;
  }

  /** {@code update_dl_entity()}: the CBS rule applied when the task wakes up. */
  void updateOnWakeup(long now) {
    boolean passed = deadline - now < 0;
    if (passed || overflow(now)) {
      if (dlDeadline != dlPeriod && !passed) {
        // Constrained task, deadline still ahead: scale runtime to the laxity instead.
        // dl_density in BW_SHIFT (20-bit) fixed point, as the kernel does, to avoid overflow.
        long density = dlDeadline == 0 ? 0 : (dlRuntime << 20) / dlDeadline;
        runtime = (density * (deadline - now)) >> 20;
        return;
      }
      newPeriod(now);
    }
  }

  /** {@code replenish_dl_entity()}: push the deadline out until runtime is positive. */
  void replenish(long now) {
    if (yielded && runtime > 0) {
      runtime = 0; // the yielded runtime is not carried over
    }
    yielded = false;
    if (dlPeriod <= 0 || dlRuntime <= 0) {
      newPeriod(now);
      return;
    }
    while (runtime <= 0) {
      deadline += dlPeriod;
      runtime += dlRuntime;
    }
    if (deadline - now < 0) {
      newPeriod(now); // "DL replenish lagged too much"
    }
    throttled = false;
  }

  /** Start of the next period, when the replenishment timer fires ({@code dl_next_period}). */
  long nextPeriodStart() {
    return deadline - dlDeadline + dlPeriod;
  }
}
