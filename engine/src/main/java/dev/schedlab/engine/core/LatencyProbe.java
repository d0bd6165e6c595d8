package dev.schedlab.engine.core;

/**
 * A task's pending wake-up latency figures, as cyclictest and rtla timerlat measure them: each
 * series a sleep step asked for, recorded when the task gets to the matching point (timer handler,
 * switched in, back in user space), and the reference time the user-side figure counts from.
 */
final class LatencyProbe {
  /** Series recorded at return to user after the sleep, or null. */
  SampleSeries pendingUser;
  /** Reference time of {@link #pendingUser}: the expiry, or step start + requested sleep. */
  long userBase;
  /** timerlat's IRQ, Thread and Ret-user series of the current period, or null. */
  SampleSeries pendingIrq;
  SampleSeries pendingThread;
  SampleSeries pendingRetUser;
  /** cyclictest's next absolute expiry ({@code TIMER_ABSTIME}), 0 before the first period. */
  long nextPeriod;
}
