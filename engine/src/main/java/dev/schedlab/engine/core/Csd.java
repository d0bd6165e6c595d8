package dev.schedlab.engine.core;

import dev.schedlab.api.CallFunction;
import dev.schedlab.api.IpiPath;
import org.jspecify.annotations.Nullable;

/** A queued cross-CPU call ({@code call_single_data_t}); pooled per kernel. */
final class Csd {
  @Nullable Csd next;

  /** The CPU that queued it, which wrote the queue head and a function call's CSD line last. */
  @SuppressWarnings("NullAway.Init") // set when queued
  Cpu from;

  @SuppressWarnings("NullAway.Init")
  IpiPath path;

  long costNs;

  /** Plugin or engine function, or null. */
  @Nullable CallFunction fn;

  /** A task to activate on the target (wake-list entry), or null. */
  @Nullable Task wakee;

  /** A task spinning in csd_lock_wait() for this call, or null. */
  @Nullable Task waiter;
}
