package dev.schedlab.api;

/** A reusable hrtimer created by {@link SchedServices#newTimer}; arming it allocates nothing. */
public interface TimerHandle {
  /** Arms (or re-arms) the timer to fire at absolute simulated time {@code expiresNs}. */
  void arm(long expiresNs);

  /** Cancels the timer if armed. */
  void cancel();

  /** Whether the timer is armed. */
  boolean armed();
}
