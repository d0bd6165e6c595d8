package dev.schedlab.api.view;

/** Read-only view of a per-CPU runqueue ({@code struct rq}). */
public interface RqView {
  /** The CPU this runqueue belongs to. */
  int cpu();

  /** Tasks queued on this runqueue over all classes, including curr ({@code rq->nr_running}). */
  int nrRunning();

  /** The running task (the idle task when idle). */
  TaskView curr();

  /** This CPU's idle task. */
  TaskView idle();

  /** The runqueue clock in ns ({@code rq->clock}). */
  long clock();

  /** Average idle duration, ns ({@code rq->avg_idle}). */
  long avgIdleNs();

  /** Next periodic balance time, in jiffies ({@code rq->next_balance}). */
  long nextBalance();

  /** Whether a remote wakeup is pending on the wake list ({@code rq->ttwu_pending}). */
  boolean ttwuPending();
}
