package dev.schedlab.api.plugin;

import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.api.hook.TickHook;

/**
 * The hook points H1-H15 of the kernel model (section 4.4), and H16-H18 (API 1.2.0) for fair
 * placement, load-balance decisions and PELT. Overridable points take one plugin implementation at
 * most; two plugins overriding the same point conflict. H3/H4 are the methods of a {@link
 * PreemptionModel}; H10 and H12 are engine services, not overridable; H15 observers stack.
 */
public enum HookPoint {
  /** H1 {@code __schedule} pick override. */
  H1_PICK_OVERRIDE(PickOverrideHook.class, true),
  /** H2 before {@code deactivate_task}. */
  H2_BEFORE_DEACTIVATE(BeforeDeactivateHook.class, true),
  /** H3 resched bit choice: a {@link PreemptionModel} contributed by a plugin. */
  H3_RESCHED_BIT(PreemptionModel.class, false),
  /** H4 preemption points: a {@link PreemptionModel} contributed by a plugin. */
  H4_PREEMPT_POINTS(PreemptionModel.class, false),
  /** H5 tick mm_cid stage. */
  H5_TICK(TickHook.class, true),
  /** H6 {@code nohz_balance_enter_idle}. */
  H6_NOHZ_ENTER_IDLE(NohzIdleEnterHook.class, true),
  /** H7 {@code nohz_balancer_kick} out stage. */
  H7_NOHZ_KICK(NohzKickHook.class, true),
  /** H8 {@code nohz_newidle_balance}. */
  H8_NEWIDLE_FAIL(NewidleFailHook.class, true),
  /** H9 {@code nohz_run_idle_balance}. */
  H9_IDLE_TOP(IdleTopHook.class, true),
  /** H10 {@code _nohz_idle_balance}: engine service. */
  H10_ILB_RUN(Void.class, false),
  /** H11 exit to user mode. */
  H11_EXIT_TO_USER(ExitToUserHook.class, true),
  /** H12 deferred-work submission: engine service. */
  H12_DEFER(Void.class, false),
  /** H13 IPI preparation. */
  H13_IPI_PREPARE(IpiPrepareHook.class, true),
  /** H14 {@code ttwu_runnable}. */
  H14_RUNNABLE_WAKE(RunnableWakeHook.class, true),
  /** H15 metrics observers. */
  H15_METRICS(MetricsHook.class, false),
  /** H16 {@code select_task_rq()} placement. Since API 1.2.0. */
  H16_SELECT_TASK_RQ(SelectTaskRqHook.class, true),
  /** H17 {@code sched_balance_rq()} decision. Since API 1.2.0. */
  H17_LOAD_BALANCE(LoadBalanceHook.class, true),
  /** H18 PELT update (util_est). Since API 1.2.0. */
  H18_PELT(PeltHook.class, true);

  private final Class<?> type;
  private final boolean exclusive;

  HookPoint(Class<?> type, boolean exclusive) {
    this.type = type;
    this.exclusive = exclusive;
  }

  /** The interface a plugin implements for this point. */
  public Class<?> type() {
    return type;
  }

  /** Whether at most one plugin may override this point. */
  public boolean exclusive() {
    return exclusive;
  }

  /** The point whose interface is {@code type}, for overridable points. */
  public static HookPoint ofType(Class<?> type) {
    for (HookPoint p : values()) {
      if (p.exclusive && p.type == type) {
        return p;
      }
    }
    throw new IllegalArgumentException(type.getName() + " is not an overridable hook interface");
  }
}
