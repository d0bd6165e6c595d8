package dev.schedlab.api;

import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * The one narrow interface through which classes, policies and plugins act on the simulated kernel,
 * in the spirit of sched_ext's kfuncs. Everything else they see is read-only.
 */
public interface SchedServices {
  /** Simulated time, ns. */
  long now();

  /** The machine. */
  MachineView machine();

  /** {@code resched_curr()}: asks the preemption model which bit to set on {@code cpu}'s curr. */
  void resched(int cpu, ReschedReason reason);

  /**
   * Sets a resched bit directly (no model translation); a remote NR sends an IPI unless polling.
   */
  void setResched(int cpu, ReschedBit bit);

  /**
   * {@code smp_call_function_single_async()}: run {@code fn} on {@code target}, costing {@code
   * costNs}.
   */
  void callFunction(int target, long costNs, CallFunction fn);

  /**
   * H12: submits deferred work of {@code costNs} CPU time. {@code owner} is the task for task_work
   * (and the queuing task otherwise), {@code cpu} the queuing CPU; {@code delayNs} applies to
   * delayed work.
   */
  void defer(DeferKind kind, TaskView owner, int cpu, long costNs, long delayNs, DeferredWork work);

  /** A value from the parameter table (ns for durations), after scenario overrides. */
  long param(String key);

  /** A named counter in the run's metrics. */
  Counter counter(String name);

  /** Creates a reusable hrtimer on {@code cpu}. */
  TimerHandle newTimer(int cpu, TimerCallback callback);

  /** Completes a delayed dequeue begun by {@link SchedulingClass#dequeue} returning false. */
  void completeDelayedDequeue(TaskView p);

  /** The current tick count ({@code jiffies}). */
  long jiffies();

  /** The processes' mm concurrency-ID state (for the H5 mm_cid stage). */
  dev.schedlab.api.hook.MmCidControl mmCid();

  /**
   * Adds {@code ns} of CPU time to the kernel path being executed (for example per CPU a wakeup
   * scan probed). Since API 1.2.0.
   */
  default void addPathCost(long ns) {}

  /**
   * {@code move_queued_task()}: moves {@code p}, queued on its CPU and not running, to {@code
   * dstCpu} (a dequeue with DEQUEUE_MIGRATING, an enqueue with ENQUEUE_MIGRATED) and lets it
   * preempt there; for a class's push and pull balancing. Since API 1.2.0.
   */
  default void migrateQueued(TaskView p, int dstCpu) {
    throw new UnsupportedOperationException("migrateQueued");
  }

  /**
   * {@code add_nr_running()}/{@code sub_nr_running()} for tasks a class keeps queued but not
   * runnable (CFS bandwidth throttling): {@code delta} changes {@code cpu}'s {@link
   * dev.schedlab.api.view.RqView#nrRunning()}. Since API 1.2.0.
   */
  default void changeNrRunning(int cpu, int delta) {
    throw new UnsupportedOperationException("changeNrRunning");
  }

  /**
   * The implementation in force for the overridable hook point whose interface is {@code type} (a
   * plugin's, else the interface's {@code MAINLINE}), for hooks that classes consult, such as
   * {@link dev.schedlab.api.hook.PeltHook}. Since API 1.2.0.
   */
  default <H> @Nullable H hook(Class<H> type) {
    return null;
  }

  /** {@code set_idle_cores(cpu, value)} on {@code cpu}'s LLC. Since API 1.2.0. */
  default void setLlcHasIdleCores(int cpu, boolean value) {}
}
