package dev.schedlab.engine.preempt;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/**
 * The PREEMPT_DYNAMIC models none, voluntary, full and lazy (section 1.6, the static-call table
 * above {@code __sched_dynamic_update()} in core.c, and tip commit 7c70cb94d29c for lazy).
 *
 * <p>Models: which preemption points act on NEED_RESCHED; under lazy, fair wakeups and slice expiry
 * set the LAZY bit (acted on at exit to user, promoted by the tick) while RT/DL use NR.
 * PREEMPT_RT's sleeping locks are core/Locks' ({@code kernel.rt}).
 *
 * <p>Does not model: switching the model during a run ({@code sched_dynamic_update()} through
 * {@code /sys/kernel/debug/sched/preempt}), and PREEMPT_RT's threaded interrupt handlers.
 *
 * <p>Kernel reference: kernel/sched/core.c ({@code resched_curr_lazy}, {@code sched_tick}),
 * include/linux/preempt.h.
 */
public final class DynamicModel implements PreemptionModel {
  private final String name;
  private final boolean condResched;
  private final boolean mightResched;
  private final boolean irqPreempt;
  private final boolean lazy;

  private DynamicModel(
      String name, boolean condResched, boolean mightResched, boolean irqPreempt, boolean lazy) {
    this.name = name;
    this.condResched = condResched;
    this.mightResched = mightResched;
    this.irqPreempt = irqPreempt;
    this.lazy = lazy;
  }

  /** preempt=none: only cond_resched() and return to user. */
  public static DynamicModel none() {
    return new DynamicModel("none", true, false, false, false);
  }

  /** preempt=voluntary: plus might_resched(). */
  public static DynamicModel voluntary() {
    return new DynamicModel("voluntary", true, true, false, false);
  }

  /** preempt=full: any IRQ exit or preempt_enable() outside non-preemptible spans. */
  public static DynamicModel full() {
    return new DynamicModel("full", false, false, true, false);
  }

  /** preempt=lazy (v6.13): full for NR, fair requests set LAZY. */
  public static DynamicModel lazy() {
    return new DynamicModel("lazy", false, false, true, true);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
    if (!lazy) {
      return ReschedBit.NR;
    }
    // resched_curr_lazy() is used by fair.c only: same-class fair wakeups and slice expiry.
    boolean fairRequest =
        reason == ReschedReason.WAKEUP_SAME_CLASS || reason == ReschedReason.SLICE_EXPIRY_TICK;
    boolean fairCurr =
        curr.policy() == dev.schedlab.api.Policy.NORMAL
            || curr.policy() == dev.schedlab.api.Policy.BATCH
            || curr.policy() == dev.schedlab.api.Policy.IDLE
            || curr.policy() == dev.schedlab.api.Policy.EXT;
    return fairRequest && fairCurr ? ReschedBit.LAZY : ReschedBit.NR;
  }

  @Override
  public boolean honours(PreemptPoint point, ReschedBit bit) {
    if (point == PreemptPoint.EXIT_TO_USER) {
      return true;
    }
    if (bit != ReschedBit.NR) {
      return false;
    }
    switch (point) {
      case COND_RESCHED:
        return condResched;
      case MIGHT_RESCHED:
        return mightResched;
      default:
        return irqPreempt;
    }
  }

  @Override
  public boolean tickUpgrade(RqView rq, TaskView curr) {
    return lazy;
  }
}
