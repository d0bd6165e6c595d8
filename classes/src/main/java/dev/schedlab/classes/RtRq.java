package dev.schedlab.classes;

import dev.schedlab.api.TimerHandle;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * Per-runqueue state of the RT class ({@code struct rt_rq}): one FIFO per priority, a bitmap of
 * non-empty lists, the count of migratable tasks, and the bandwidth (throttling) state.
 *
 * <p>Models: {@code rt_prio_array} (with priority 99 the highest, i.e. the inverse of the kernel's
 * internal prio numbering), {@code rt_time}/{@code rt_throttled}. The pushable tasks are found by a
 * walk of the lists from the highest priority (no separate plist).
 *
 * <p>Does not model: group scheduling, runtime sharing between CPUs (RT_RUNTIME_SHARE).
 *
 * <p>Kernel reference: {@code kernel/sched/rt.c} ({@code struct rt_prio_array}, {@code
 * sched_rt_runtime_exceeded}).
 */
final class RtRq {
  static final int MAX_PRIO = 99;

  private final ArrayDeque<RtEntity>[] queues;
  private final long[] bitmap = new long[2];
  int nrQueued;

  /** {@code rt_nr_migratory}: queued tasks allowed on more than one CPU. */
  int nrMigratory;

  /** RT time used in the current bandwidth period, ns. */
  long rtTime;

  boolean throttled;
  @Nullable TimerHandle periodTimer;

  @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
  RtRq() {
    queues = new ArrayDeque[MAX_PRIO + 1];
    for (int i = 0; i <= MAX_PRIO; i++) {
      queues[i] = new ArrayDeque<>();
    }
  }

  void addTail(RtEntity e) {
    queues[e.prio].addLast(e);
    bitmap[e.prio >>> 6] |= 1L << (e.prio & 63);
    nrQueued++;
  }

  boolean remove(RtEntity e) {
    ArrayDeque<RtEntity> q = queues[e.prio];
    if (!q.removeFirstOccurrence(e)) {
      return false;
    }
    if (q.isEmpty()) {
      bitmap[e.prio >>> 6] &= ~(1L << (e.prio & 63));
    }
    nrQueued--;
    return true;
  }

  /** Highest non-empty priority, or -1 ({@code sched_find_first_bit}). */
  int highestPrio() {
    if (bitmap[1] != 0) {
      return 64 + 63 - Long.numberOfLeadingZeros(bitmap[1]);
    }
    return bitmap[0] != 0 ? 63 - Long.numberOfLeadingZeros(bitmap[0]) : -1;
  }

  /** The first entity, from the highest priority down, that {@code test} accepts, or null. */
  @Nullable RtEntity highestMatching(java.util.function.Predicate<RtEntity> test) {
    for (int prio = highestPrio(); prio >= 0; prio--) {
      for (RtEntity e : queues[prio]) {
        if (test.test(e)) {
          return e;
        }
      }
    }
    return null;
  }

  /** Head of the highest-priority list, or null. */
  @Nullable RtEntity first() {
    int prio = highestPrio();
    return prio < 0 ? null : queues[prio].peekFirst();
  }

  /**
   * {@code requeue_task_rt(rq, p, 0)}: moves {@code e} to the tail; true if others share its list.
   */
  boolean requeueTail(RtEntity e) {
    ArrayDeque<RtEntity> q = queues[e.prio];
    if (q.size() < 2 || !q.removeFirstOccurrence(e)) {
      return false;
    }
    q.addLast(e);
    return true;
  }
}
