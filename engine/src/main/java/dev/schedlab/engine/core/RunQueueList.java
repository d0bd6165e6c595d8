package dev.schedlab.engine.core;

/** The engine's list of tasks queued on a runqueue, kept beside the classes' own structures. */
final class RunQueueList {
  private RunQueueList() {}

  static void add(Cpu cpu, Task t) {
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
}
