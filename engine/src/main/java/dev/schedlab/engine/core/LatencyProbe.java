package dev.schedlab.engine.core;

import org.jspecify.annotations.Nullable;

/**
 * A task's pending wake-up latency figures, as cyclictest and rtla timerlat measure them: each
 * series a sleep step asked for, recorded when the task gets to the matching point (timer handler,
 * switched in, back in user space), and the reference time the user-side figure counts from.
 */
final class LatencyProbe {
  /** Series recorded at return to user after the sleep, or null. */
  @Nullable SampleSeries pendingUser;

  /** Reference time of {@link #pendingUser}: the expiry, or step start + requested sleep. */
  long userBase;

  /** timerlat's IRQ, Thread and Ret-user series of the current period, or null. */
  @Nullable SampleSeries pendingIrq;

  @Nullable SampleSeries pendingThread;
  @Nullable SampleSeries pendingRetUser;

  /** cyclictest's next absolute expiry ({@code TIMER_ABSTIME}), 0 before the first period. */
  long nextPeriod;

  /** Back in user space (or, for a kthread, past the sleep): the user-side figure. */
  void backInUser(long now) {
    if (pendingUser != null) {
      pendingUser.record(now - userBase);
      pendingUser = null;
    }
  }

  /** The sleep timer's handler runs: timerlat's IRQ latency from the timer's expiry. */
  void timerHandled(long now, long timerExpiry) {
    if (pendingIrq != null) {
      pendingIrq.record(now - timerExpiry);
      pendingIrq = null;
    }
  }

  /** The task runs again after a switch: timerlat's Thread latency. */
  void switchedIn(long now, long timerExpiry) {
    if (pendingThread != null) {
      pendingThread.record(now - timerExpiry);
      pendingThread = null;
    }
  }

  /** The next syscall enters the kernel: timerlat's Ret-user latency. */
  void syscallEntered(long now, long timerExpiry) {
    if (pendingRetUser != null) {
      pendingRetUser.record(now - timerExpiry);
      pendingRetUser = null;
    }
  }
}
