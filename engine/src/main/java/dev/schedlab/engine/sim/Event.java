package dev.schedlab.engine.sim;

import org.jspecify.annotations.Nullable;

/**
 * A reusable future event. Owners (a CPU, a task, a timer) allocate their events once and re-arm
 * them, so the steady state allocates nothing. Dispatch is by {@link #type}, a small int the engine
 * switches on, keeping the call site monomorphic.
 */
public final class Event {
  long time;

  /** The event's slot in the queue's arrays, or -1 when not scheduled. */
  int slot = -1;

  /** What the event means to the engine. */
  public final int type;

  /** The CPU the event concerns, or -1. */
  public final int cpu;

  /** The owning object (task, timer, ...), or null. */
  public final @Nullable Object owner;

  /** An event of {@code type} for {@code cpu} owned by {@code owner}. */
  public Event(int type, int cpu, @Nullable Object owner) {
    this.type = type;
    this.cpu = cpu;
    this.owner = owner;
  }

  /** When the event fires (valid while scheduled). */
  public long time() {
    return time;
  }

  /** Whether the event is in the queue. */
  public boolean scheduled() {
    return slot >= 0;
  }
}
