package dev.schedlab.engine.core;

import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;

/**
 * Deferred work contexts (section 1.11).
 *
 * <p>Models: RCU callbacks run after a grace period in RCU_SOFTIRQ on the CPU that queued them, or,
 * for an offloaded (rcu_nocbs, i.e. isolated) CPU, in the {@code rcuo} kthread on housekeeping
 * CPUs; workqueue items run in a kworker kthread (bound to the queuing CPU, or the unbound pool on
 * housekeeping CPUs); delayed work is queued after its delay. Kthreads are fair tasks, so their
 * work can be preempted by RT tasks.
 *
 * <p>Does not model: callback batching or RCU_LAZY (each callback has its own grace-period timer);
 * more than one {@code rcuo} kthread (one serves every offloaded CPU); more than one unbound
 * kworker; bound kworkers exist from first use only.
 *
 * <p>Kernel reference: {@code kernel/rcu/tree.c} ({@code call_rcu}, {@code rcu_core}), {@code
 * kernel/rcu/tree_nocb.h} (rcu_nocbs offload), {@code kernel/workqueue.c} ({@code queue_work_on},
 * {@code queue_delayed_work_on}).
 */
final class Deferred {
  private final Kernel k;
  private final Task rcuo;
  private final Task unboundWorker;
  private final Task[] boundWorkers;
  private final MetricCounter rcuCallbacks;
  private final MetricCounter workItems;
  private final MetricCounter[] workNsOn;
  private final KthreadFactory factory;

  Deferred(Kernel k, KthreadFactory factory) {
    this.k = k;
    this.factory = factory;
    BitSet housekeeping = k.housekeeping;
    boolean nocbs = housekeeping.cardinality() < k.cpus.length;
    this.rcuo = nocbs ? factory.kthread("rcuop/0", housekeeping) : null;
    this.unboundWorker = factory.kthread("kworker/u:0", housekeeping);
    this.boundWorkers = new Task[k.cpus.length];
    rcuCallbacks = k.metrics.counter("deferred.rcu_callbacks");
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
      case RCU_CALLBACK:
        {
          WorkItem w = new WorkItem(costNs, fn, cpu, true);
          k.queue.schedule(w.due, k.now + k.costs.p(Param.RCU_GP));
          break;
        }
      case WORKQUEUE:
        queueWork(new WorkItem(costNs, fn, cpu, false));
        break;
      case DELAYED_WORK:
        {
          WorkItem w = new WorkItem(costNs, fn, cpu, false);
          k.queue.schedule(w.due, k.now + delayNs);
          break;
        }
      default:
        throw new IllegalArgumentException(kind + " is not deferred through this path");
    }
  }

  /** A grace period or a delay ended. */
  void due(WorkItem w) {
    if (!w.rcu) {
      queueWork(w);
      return;
    }
    rcuCallbacks.value++;
    Cpu c = k.cpus[w.cpu];
    if (rcuo != null && c.isolated) {
      enqueue(rcuo, w); // rcu_nocbs: the offload kthread runs it on a housekeeping CPU
    } else {
      c.rcuPending.add(w);
      k.thisCpu = c.id;
      k.irqs.raise(c, Cpu.IRQ_RCU);
    }
  }

  /** RCU_SOFTIRQ on {@code cpu}: invoke its ready callbacks; cost to {@link Kernel#pathCost}. */
  void rcuSoftirq(Cpu cpu) {
    while (!cpu.rcuPending.isEmpty()) {
      WorkItem w = cpu.rcuPending.poll();
      long cost = k.costs.p(Param.RCU_CB_OVERHEAD) + w.costNs;
      k.pathCost += cost;
      account(cpu.id, cost);
      w.fn.run(cpu.id);
    }
  }

  private void queueWork(WorkItem w) {
    workItems.value++;
    Task worker;
    if (k.housekeeping.get(w.cpu)) {
      worker = boundWorkers[w.cpu];
      if (worker == null) {
        BitSet one = new BitSet();
        one.set(w.cpu);
        worker = factory.kthread("kworker/" + w.cpu + ":1", one);
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

  /** Creates engine kthreads (fair, nice 0, running the work-queue loop). */
  interface KthreadFactory {
    Task kthread(String comm, BitSet allowed);
  }

  /** Queues {@code w} on kthread {@code t} and wakes it if it sleeps. */
  void queueKthreadWork(Task t, WorkItem w) {
    t.workQueue.add(w);
    if (t.state != dev.schedlab.api.TaskState.RUNNING) {
      k.sched.wakeUp(t, 0);
    }
  }
}
