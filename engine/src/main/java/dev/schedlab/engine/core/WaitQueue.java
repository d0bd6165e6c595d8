package dev.schedlab.engine.core;

import java.util.ArrayDeque;

/**
 * A named wait queue ({@code wait_queue_head_t}): FIFO of blocked tasks, plus wakeups that found no
 * sleeper, and the bytes charged when it is a socket's send-buffer queue.
 */
final class WaitQueue {
  final String name;
  final ArrayDeque<Task> sleepers = new ArrayDeque<>();

  /** Wakeups with no sleeper yet, consumed by the next block (like a pipe holding data). */
  int pendingWakeups;

  /** Bytes charged to the send buffer this queue belongs to ({@code sk_wmem_alloc}). */
  long charged;

  WaitQueue(String name) {
    this.name = name;
  }
}
