package dev.schedlab.api;

import dev.schedlab.api.view.LoadAvgView;
import dev.schedlab.api.view.TaskView;

/**
 * Implemented by a {@link SchedulingClass} that keeps PELT load tracking for its tasks and
 * runqueues, as fair.c does for the fair class. The engine's load balancer and the read-only views
 * ({@link TaskView#loadAvg()}, {@link dev.schedlab.api.view.RqView#cfsAvg()}) read it through this
 * interface. Since API 1.2.0.
 */
public interface LoadTracking {
  /** {@code p->se.avg} of one of this class's tasks. */
  LoadAvgView taskAvg(TaskView p);

  /** The signals of {@code cpu}'s root runqueue of this class ({@code rq->cfs.avg}). */
  LoadAvgView rqAvg(int cpu);

  /**
   * v4.17's {@code weighted_cpuload()}: {@code cpu}'s root {@code runnable_load_avg}, the load of
   * the queued entities without the blocked load of sleeping tasks; -1 when the class does not
   * track it (the v4.17 balancer then reads {@link #rqAvg}'s load). Since API 1.2.0.
   */
  default long runnableLoad(int cpu) {
    return -1;
  }

  /**
   * {@code task_h_load()}: the share of its CPU's root load that {@code p} stands for, through the
   * task-group hierarchy (its own {@code load_avg} when it is in the root group).
   */
  long taskHLoad(TaskView p);

  /**
   * This class's part of {@code sched_balance_update_blocked_averages()}: decays {@code cpu}'s
   * runqueue signals (blocked load of sleeping tasks) up to now. Returns whether any signal is
   * still non-zero with nothing runnable, i.e. blocked load remains to decay.
   */
  boolean updateBlocked(int cpu);

  /** Whether {@code p} sits in a throttled group ({@code throttled_lb_pair()}: not movable). */
  default boolean throttled(TaskView p) {
    return false;
  }
}
