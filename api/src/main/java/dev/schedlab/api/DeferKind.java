package dev.schedlab.api;

/** Deferred-work vehicles the engine provides (hook point H12). */
public enum DeferKind {
  /**
   * {@code task_work_add(TWA_RESUME)}: runs in the owner task's context at its next exit to user.
   */
  TASK_WORK,
  /**
   * {@code call_rcu()}: runs after a grace period, in softirq or in an rcuo kthread (rcu_nocbs
   * CPUs).
   */
  RCU_CALLBACK,
  /** {@code queue_work()}: runs on a kworker kthread on an allowed CPU. */
  WORKQUEUE,
  /** {@code schedule_delayed_work()}: a workqueue item after a delay. */
  DELAYED_WORK
}
