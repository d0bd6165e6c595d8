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

  /**
   * {@code rq_clock_pelt()}: the clock PELT signals advance on, ns. It runs slower than {@link
   * #clock()} on a CPU of less than full capacity or frequency (capacity and frequency invariance)
   * and catches up with it while the CPU is idle. Since API 1.2.0.
   */
  default long clockPelt() {
    return clock();
  }

  /**
   * {@code rq->idle_stamp}: when the CPU last went idle through a newidle balance, ns (0 once a
   * task was queued since). Since API 1.2.0.
   */
  default long idleStampNs() {
    return 0;
  }

  /** PELT of the root fair runqueue ({@code rq->cfs.avg}). Since API 1.2.0. */
  default LoadAvgView cfsAvg() {
    return LoadAvgView.ZERO;
  }

  /** PELT of the time RT tasks ran ({@code rq->avg_rt}). Since API 1.2.0. */
  default LoadAvgView rtAvg() {
    return LoadAvgView.ZERO;
  }

  /** PELT of the time deadline tasks ran ({@code rq->avg_dl}). Since API 1.2.0. */
  default LoadAvgView dlAvg() {
    return LoadAvgView.ZERO;
  }

  /** PELT of the time spent in interrupts ({@code rq->avg_irq}). Since API 1.2.0. */
  default LoadAvgView irqAvg() {
    return LoadAvgView.ZERO;
  }
}
