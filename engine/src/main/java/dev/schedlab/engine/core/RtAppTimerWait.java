package dev.schedlab.engine.core;

import org.jspecify.annotations.Nullable;

/** A task's wait on an rt-app timer event: the expiry it sleeps to and its wake-up series. */
final class RtAppTimerWait {
  /** TIMER_SLEEP: the expiry chosen by the timer op. */
  long target;

  /** The series of the wake latency, or null. */
  @Nullable TimeSeries pendingWakeTimes;

  /** Back in user space after the timer sleep: rt-app's wake-up latency. */
  void backInUser(long now) {
    if (pendingWakeTimes != null) {
      pendingWakeTimes.add(now - target);
      pendingWakeTimes = null;
    }
  }
}
