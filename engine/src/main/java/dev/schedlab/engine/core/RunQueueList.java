package dev.schedlab.engine.core;

import dev.schedlab.api.SchedulingClass;

/**
 * The engine's list of tasks queued on a runqueue, kept beside the classes' own structures, and the
 * count of those ranked above the fair class ({@code rq->nr_running - rq->cfs.h_nr_running} for
 * {@code __pick_next_task()}'s fast path).
 */
final class RunQueueList {
  private RunQueueList() {}

  static void add(Cpu cpu, Task t) {
    if (t.classRank > SchedulingClass.RANK_FAIR) {
      t.countedAboveFair = true;
      cpu.nrAboveFair++;
    }
    t.rqNext = null;
    t.rqPrev = cpu.queuedTail;
    if (cpu.queuedTail == null) {
      cpu.queuedHead = t;
    } else {
      cpu.queuedTail.rqNext = t;
    }
    cpu.queuedTail = t;
  }

  static void remove(Cpu cpu, Task t) {
    if (t.countedAboveFair) {
      t.countedAboveFair = false;
      cpu.nrAboveFair--;
    }
    if (t.rqPrev == null) {
      cpu.queuedHead = t.rqNext;
    } else {
      t.rqPrev.rqNext = t.rqNext;
    }
    if (t.rqNext == null) {
      cpu.queuedTail = t.rqPrev;
    } else {
      t.rqNext.rqPrev = t.rqPrev;
    }
    t.rqPrev = null;
    t.rqNext = null;
  }

  /**
   * {@code t} changed class (PI boost, plugin ejection): recount it if it is queued on {@code cpu}.
   */
  static void reclassed(Cpu cpu, Task t) {
    boolean listed = cpu.queuedHead == t || t.rqPrev != null;
    boolean above = t.classRank > SchedulingClass.RANK_FAIR;
    if (listed && above != t.countedAboveFair) {
      t.countedAboveFair = above;
      cpu.nrAboveFair += above ? 1 : -1;
    }
  }
}
