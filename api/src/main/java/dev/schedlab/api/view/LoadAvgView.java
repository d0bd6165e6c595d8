package dev.schedlab.api.view;

/**
 * Read-only PELT signals of an entity or a runqueue ({@code struct sched_avg}): averages in the
 * kernel's units, where a task that always runs on a full-capacity CPU at full frequency reaches a
 * {@code util_avg} of 1024 ({@code SCHED_CAPACITY_SCALE}) and a {@code load_avg} of its weight.
 */
public interface LoadAvgView {
  /** A signal that is always zero (nothing tracked). */
  LoadAvgView ZERO =
      new LoadAvgView() {
        @Override
        public long loadAvg() {
          return 0;
        }

        @Override
        public long runnableAvg() {
          return 0;
        }

        @Override
        public long utilAvg() {
          return 0;
        }

        @Override
        public long utilEst() {
          return 0;
        }

        @Override
        public long lastUpdateNs() {
          return 0;
        }
      };

  /** {@code load_avg}: the weight-scaled runnable average. */
  long loadAvg();

  /** {@code runnable_avg}: runnable (running or waiting) average, 0..1024 per task. */
  long runnableAvg();

  /** {@code util_avg}: running average, 0..1024 per CPU. */
  long utilAvg();

  /**
   * {@code util_est}: for a task, the EWMA of its utilisation at dequeue (without the {@code
   * UTIL_AVG_UNCHANGED} flag bit); for a runqueue, the sum over its enqueued tasks.
   */
  long utilEst();

  /** {@code last_update_time} in the runqueue's PELT clock, ns. */
  long lastUpdateNs();
}
