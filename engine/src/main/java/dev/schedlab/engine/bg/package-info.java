/**
 * Background kernel activity of a host: the timer-wheel timers, kworker items and RCU callbacks of
 * subsystems outside the workload (vmstat, writeback, the workqueue watchdog, networking). This
 * package holds the rates and the per-CPU random streams that decide when a timer expires and what
 * its callback queues; {@code engine.core.Background} runs them in the tick, TIMER_SOFTIRQ, the
 * CPU's kworker and the RCU model. Off (no stream, no event) unless {@code bg.timer_rate_milli} is
 * set.
 */
package dev.schedlab.engine.bg;
