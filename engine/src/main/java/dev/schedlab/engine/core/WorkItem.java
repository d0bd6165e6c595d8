package dev.schedlab.engine.core;

import dev.schedlab.api.DeferredWork;
import dev.schedlab.engine.sim.Event;

/** A deferred-work record: an RCU callback or a workqueue item, with its CPU cost and body. */
final class WorkItem {
  final long costNs;
  final DeferredWork fn;

  /** The CPU that queued it (RCU callbacks run there unless it is offloaded). */
  final int cpu;

  /** Fires at the end of a delayed work's delay (RCU callbacks wait in {@link Rcu} instead). */
  final Event due;

  /** An RCU callback's grace period ({@code rcu_seq_snap()}), 0 until {@link Rcu} assigns one. */
  long rcuGpSeq;

  WorkItem(long costNs, DeferredWork fn, int cpu) {
    this.costNs = costNs;
    this.fn = fn;
    this.cpu = cpu;
    this.due = new Event(EventLoop.EV_WORK_DUE, cpu, this);
  }
}
