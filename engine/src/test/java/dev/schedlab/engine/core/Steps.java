package dev.schedlab.engine.core;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.StepSpec.Segment;
import java.util.List;

/** Task-program steps for {@link TestRun}, with a scenario file's defaults; durations in ns. */
final class Steps {
  private Steps() {}

  /** Compute in user mode. */
  static StepSpec user(long ns) {
    return user(Dist.fixed(ns));
  }

  static StepSpec user(Dist duration) {
    return new StepSpec.User(duration);
  }

  /** A syscall whose kernel path is one preemptible segment. */
  static StepSpec kernel(long ns) {
    return kernel(segment(ns));
  }

  /** A syscall whose kernel path is {@code segments}. */
  static StepSpec kernel(Segment... segments) {
    return new StepSpec.Kernel(List.of(segments));
  }

  /** A preemptible kernel segment with IRQs on and no preemption point at its end. */
  static Segment segment(long ns) {
    return segment(Dist.fixed(ns));
  }

  static Segment segment(Dist duration) {
    return new Segment(duration, true, false, "NONE");
  }

  /**
   * A kernel segment: {@code preemptible} false is a preempt-disabled span, {@code ends} NONE,
   * COND_RESCHED or MIGHT_RESCHED.
   */
  static Segment segment(long ns, boolean preemptible, boolean irqsOff, String ends) {
    return new Segment(Dist.fixed(ns), preemptible, irqsOff, ends);
  }

  /** Takes {@code lock} inside a kernel path ({@code spin_lock}, {@code mutex_lock}, ...). */
  static Segment lock(String lock) {
    return Segment.lock(lock, false, false);
  }

  /** {@code spin_lock_irqsave}. */
  static Segment lockIrqsOff(String lock) {
    return Segment.lock(lock, true, false);
  }

  static Segment unlock(String lock) {
    return Segment.unlock(lock);
  }

  /** A syscall that takes a sleeping lock and returns to user holding it. */
  static StepSpec lockStep(String lock) {
    return StepSpec.lockStep(lock, false);
  }

  /** {@code down_read()} as a syscall returning to user with the lock held. */
  static StepSpec readLockStep(String lock) {
    return StepSpec.lockStep(lock, true);
  }

  static StepSpec unlockStep(String lock) {
    return StepSpec.unlockStep(lock);
  }

  /** One system call of kernel, wake, block, sleep and loop parts. */
  static StepSpec syscall(StepSpec... parts) {
    return new StepSpec.Syscall(List.of(parts));
  }

  static StepSpec loop(int count, StepSpec... body) {
    return new StepSpec.Loop(count, List.of(body));
  }

  /** Relative {@code clock_nanosleep}. */
  static StepSpec sleep(long ns) {
    return new StepSpec.Sleep(Dist.fixed(ns));
  }

  /** A relative sleep recording its overshoot into latency series {@code sample}. */
  static StepSpec sleep(long ns, String sample) {
    return new StepSpec.Sleep(Dist.fixed(ns), sample);
  }

  /** Absolute sleep to the next period boundary. */
  static StepSpec sleepUntil(long periodNs) {
    return sleepUntil(periodNs, null);
  }

  /** A periodic sleep recording expiry-to-user latency into {@code sample}. */
  static StepSpec sleepUntil(long periodNs, String sample) {
    return new StepSpec.SleepUntil(periodNs, sample);
  }

  static StepSpec block(String waitQueue) {
    return new StepSpec.Block(waitQueue);
  }

  /** Wakes one sleeper of {@code waitQueue}, WF_SYNC when {@code sync}. */
  static StepSpec wake(String waitQueue, boolean sync) {
    return new StepSpec.Wake(waitQueue, sync);
  }

  static StepSpec mark(String counter) {
    return new StepSpec.Mark(counter);
  }

  static StepSpec exit() {
    return new StepSpec.Exit();
  }
}
