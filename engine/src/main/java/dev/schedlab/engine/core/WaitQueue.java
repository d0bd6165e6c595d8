package dev.schedlab.engine.core;

import java.util.ArrayDeque;

/**
 * A named wait queue ({@code wait_queue_head_t}): FIFO of blocked tasks, plus wakeups that found no
 * sleeper.
 */
final class WaitQueue {
  final String name;
  final ArrayDeque<Task> sleepers = new ArrayDeque<>();

  /** Wakeups with no sleeper yet, consumed by the next block (like a pipe holding data). */
  int pendingWakeups;

  WaitQueue(String name) {
    this.name = name;
  }
}
