package dev.schedlab.engine.core;

import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * A named wait queue ({@code wait_queue_head_t}): FIFO of blocked tasks, plus wakeups that found no
 * sleeper, the bytes charged when it is a socket's send-buffer queue, the messages queued when it
 * is a socket's receive queue, and the user-space word when it is the futex of a glibc mutex.
 */
final class WaitQueue {
  final String name;
  final ArrayDeque<Task> sleepers = new ArrayDeque<>();

  /** Wakeups with no sleeper yet, consumed by the next block (like a pipe holding data). */
  int pendingWakeups;

  /** Bytes charged to the send buffer this queue belongs to ({@code sk_wmem_alloc}). */
  long charged;

  /**
   * The futex word of a glibc mutex on this queue ({@code lll_lock}): 0 unlocked, 1 locked, 2
   * locked and maybe waited for (its unlock then calls {@code futex_wake}).
   */
  int futexWord;

  /**
   * The queued messages and shared lines when it is a socket's receive queue ({@link SocketLines}).
   */
  SocketLines.@Nullable Socket socket;

  WaitQueue(String name) {
    this.name = name;
  }
}
