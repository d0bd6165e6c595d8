package dev.schedlab.engine.core;

import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import java.util.BitSet;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Deferred work contexts (section 1.11).
 *
 * <p>Models: RCU callbacks go to {@link Rcu}, which invokes them after their grace period in
 * RCU_SOFTIRQ on the CPU that queued them, or, for an offloaded (rcu_nocbs, i.e. isolated) CPU,
 * hands them here to the {@code rcuo} kthread on housekeeping CPUs; workqueue items run in a
 * kworker kthread (bound to the queuing CPU, or the unbound pool on housekeeping CPUs); delayed
 * work is queued after its delay. Kthreads are fair tasks, so their work can be preempted by RT
 * tasks.
 *
 * <p>Does not model: more than one {@code rcuo} kthread (one serves every offloaded CPU); more than
 * one unbound kworker; bound kworkers exist from first use only.
 *
 * <p>Kernel reference: {@code kernel/rcu/tree.c} ({@code call_rcu}, {@code rcu_core}), {@code
 * kernel/rcu/tree_nocb.h} (rcu_nocbs offload), {@code kernel/workqueue.c} ({@code queue_work_on},
 * {@code queue_delayed_work_on}).
 */
final class Deferred {
  private final Kernel k;
  private final @Nullable Task rcuo;
  private final Task unboundWorker;
  private final Task[] boundWorkers;
  private final MetricCounter workItems;
  private final MetricCounter[] workNsOn;
  private final KthreadFactory factory;

  Deferred(Kernel k, KthreadFactory factory) {
    this.k = k;
    this.factory = factory;
    BitSet housekeeping = k.housekeeping;
    boolean nocbs = housekeeping.cardinality() < k.cpus.length;
    this.rcuo = nocbs ? factory.kthread("rcuop/0", housekeeping, Op.KWORK) : null;
    this.unboundWorker = factory.kthread("kworker/u:0", housekeeping, Op.KWORK);
    this.boundWorkers = new Task[k.cpus.length];
    workItems = k.metrics.counter("deferred.work_items");
    workNsOn =
        new MetricCounter[] {
          k.metrics.counter("deferred.work_ns_on_housekeeping_cpus"),
          k.metrics.counter("deferred.work_ns_on_isolated_cpus")
        };
  }

  /** H12: submits work through the vehicle {@code kind}. */
  void submit(DeferKind kind, int cpu, long costNs, long delayNs, DeferredWork fn) {
    switch (kind) {
      case RCU_CALLBACK -> k.rcu.callRcu(k.cpus[cpu], new WorkItem(costNs, fn, cpu));
      case WORKQUEUE -> queueWork(new WorkItem(costNs, fn, cpu));
      case DELAYED_WORK -> {
        WorkItem w = new WorkItem(costNs, fn, cpu);
        k.queue.schedule(w.due, k.now + delayNs);
      }
      default -> throw new IllegalArgumentException(kind + " is not deferred through this path");
    }
  }

  /** A delayed work's delay ended. */
  void due(WorkItem w) {
    queueWork(w);
  }

  /** Whether {@code cpu}'s RCU callbacks are offloaded (rcu_nocbs) to the {@code rcuo} kthread. */
  boolean offloaded(int cpu) {
    return rcuo != null && k.cpus[cpu].isolated;
  }

  /** An offloaded CPU's RCU callback whose grace period ended: the rcuo kthread runs it. */
  void offloadedReady(WorkItem w) {
    enqueue(Objects.requireNonNull(rcuo), w);
  }

  private void queueWork(WorkItem w) {
    workItems.value++;
    Task worker;
    if (k.housekeeping.get(w.cpu)) {
      worker = boundWorkers[w.cpu];
      if (worker == null) {
        BitSet one = new BitSet();
        one.set(w.cpu);
        worker = factory.kthread("kworker/" + w.cpu + ":1", one, Op.KWORK);
        boundWorkers[w.cpu] = worker;
      }
    } else {
      worker = unboundWorker; // isolated CPUs: work goes to the housekeeping pool
    }
    enqueue(worker, w);
  }

  private void enqueue(Task kthread, WorkItem w) {
    queueKthreadWork(kthread, w); // the wakeup is charged to whatever path queued the work
  }

  void account(int cpu, long costNs) {
    workNsOn[k.cpus[cpu].isolated ? 1 : 0].value += costNs;
  }

  /** A fair kthread, nice 0, asleep, running the one-op loop {@code loop} (an {@link Op} code). */
  Task kthread(String comm, BitSet allowed, int loop) {
    return factory.kthread(comm, allowed, loop);
  }

  /** Creates engine kthreads (fair, nice 0, running a one-op loop: the work queue, ksoftirqd). */
  interface KthreadFactory {
    Task kthread(String comm, BitSet allowed, int loop);
  }

  /** Queues {@code w} on kthread {@code t} and wakes it if it sleeps. */
  void queueKthreadWork(Task t, WorkItem w) {
    Objects.requireNonNull(t.workQueue).add(w);
    if (t.state != dev.schedlab.api.TaskState.RUNNING) {
      k.sched.wakeUp(t, 0);
    }
  }
}
