package dev.schedlab.api;

/**
 * Body of deferred work (task_work, RCU callback, workqueue item); runs after its cost is spent.
 */
@FunctionalInterface
public interface DeferredWork {
  /** Runs on {@code cpu}, in the context the vehicle provides. */
  void run(int cpu);
}
