package dev.schedlab.api.hook;

/**
 * H15: observes engine events (the trace's event names: {@code sched_switch}, {@code sched_wakeup},
 * {@code ipi_send}, {@code cpu_idle}, ...). Observers may count; they must not change the run.
 */
@FunctionalInterface
public interface MetricsHook {
  /** Mainline: observe nothing. */
  MetricsHook NONE = (event, cpu, pid, timeNs) -> {};

  /** An event of kind {@code event} on {@code cpu} concerning task {@code pid} (or -1). */
  void on(String event, int cpu, int pid, long timeNs);
}
