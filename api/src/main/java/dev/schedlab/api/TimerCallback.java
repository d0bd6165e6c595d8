package dev.schedlab.api;

/** Body of an hrtimer, run in hard-IRQ context on the timer's CPU. */
@FunctionalInterface
public interface TimerCallback {
  /** The timer expired; {@code nowNs} is the handler's time. */
  void expired(int cpu, long nowNs);
}
