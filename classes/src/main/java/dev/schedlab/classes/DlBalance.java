package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * SCHED_DEADLINE push and pull between runqueues (global EDF within a root domain).
 *
 * <p>Models: the root domains (the housekeeping CPUs, and the isolated CPUs in the default one);
 * per root domain the {@link CpuDeadline} heap of each runqueue's earliest deadline and the
 * overload mask ({@code dlo_mask}: CPUs with a pushable task, that is a queued, not running task
 * allowed on more than one CPU); {@code find_later_rq()} (the candidates of {@code cpudl_find()};
 * the task's CPU if it is one, else the calling CPU if it is one and shares a domain with the
 * task's CPU, else the first candidate of the task CPU's lowest domain that has one); {@code
 * find_lock_later_rq()}'s check that the task would be the earliest there (up to {@code
 * DL_MAX_TRIES}); {@code push_dl_task()} of the earliest pushable task (or a reschedule when it
 * should preempt a migratable curr), looping in {@code push_dl_tasks()}; {@code pull_dl_task()}:
 * from every overloaded CPU whose next deadline is earlier than ours, the earliest pushable task
 * allowed here that would be the earliest here and does not preempt its own CPU's task. Each
 * migration costs {@code cost.lb_per_task} through {@code SchedServices.migrateQueued()}.
 *
 * <p>Does not model: the locks and retries of {@code find_lock_later_rq()} and {@code
 * double_lock_balance()} (the model's CPUs do not race inside one event), migration-disabled tasks
 * ({@code get_push_task()}), {@code cpumask_any_and_distribute()}'s rotation (the lowest CPU id is
 * taken), capacity awareness on asymmetric machines, the cache lines of the remote runqueues and of
 * the heap's lock.
 *
 * <p>Kernel reference: {@code kernel/sched/deadline.c} ({@code find_later_rq}, {@code
 * find_lock_later_rq}, {@code push_dl_task}, {@code pull_dl_task}, {@code
 * pick_earliest_pushable_dl_task}, {@code enqueue_pushable_dl_task}, {@code inc_dl_deadline},
 * {@code dec_dl_deadline}), {@code kernel/sched/cpudeadline.c}.
 */
final class DlBalance {
  private static final int DL_MAX_TRIES = 3;

  private final MachineView m;
  private final SchedServices services;
  private final DeadlineArray<DlEntity>[] trees;

  /** Per CPU: the deadline task it runs (set at pick, cleared at put), or null. */
  private final @Nullable DlEntity[] running;

  /** Per CPU: its root domain (0 the housekeeping CPUs, 1 the isolated ones). */
  private final int[] rootOf;

  private final CpuDeadline[] cpudl = new CpuDeadline[2];
  private final BitSet[] overloaded = {new BitSet(), new BitSet()};
  private final BitSet later = new BitSet();

  DlBalance(MachineView m, SchedServices services, DeadlineArray<DlEntity>[] trees) {
    this.m = m;
    this.services = services;
    this.trees = trees;
    int n = m.nrCpus();
    running = new DlEntity[n];
    rootOf = new int[n];
    BitSet[] spans = {new BitSet(), new BitSet()};
    for (int c = 0; c < n; c++) {
      rootOf[c] = m.cpu(c).isolated() ? 1 : 0;
      spans[rootOf[c]].set(c);
    }
    for (int r = 0; r < 2; r++) {
      cpudl[r] = new CpuDeadline(n, spans[r]);
    }
  }

  /**
   * The dl_rq of {@code cpu} changed ({@code inc_dl_deadline()}, {@code dec_dl_deadline()}, the
   * pushable list): refresh its heap entry and its overload bit.
   */
  void changed(int cpu) {
    DlEntity first = trees[cpu].first();
    CpuDeadline heap = cpudl[rootOf[cpu]];
    if (first == null) {
      heap.clear(cpu);
    } else if (heap.isFree(cpu) || heap.deadlineOf(cpu) != first.deadline) {
      heap.set(cpu, first.deadline);
    }
    overloaded[rootOf[cpu]].set(cpu, earliestPushable(cpu, -1, false) != null);
  }

  /** {@code set_next_task_dl()} / {@code put_prev_task_dl()}: what {@code cpu} runs changed. */
  void setRunning(int cpu, @Nullable DlEntity e) {
    running[cpu] = e;
    changed(cpu);
  }

  @Nullable DlEntity running(int cpu) {
    return running[cpu];
  }

  /**
   * The earliest pushable task of {@code cpu} (queued, not its curr, allowed on more than one CPU),
   * allowed on {@code forCpu} when >= 0; with {@code movable}, also off the CPU ({@code
   * pick_earliest_pushable_dl_task()}: a task whose context is still being switched out stays).
   */
  private @Nullable DlEntity earliestPushable(int cpu, int forCpu, boolean movable) {
    DeadlineArray<DlEntity> tree = trees[cpu];
    DlEntity curr = running[cpu];
    for (int i = 0; i < tree.size(); i++) {
      DlEntity e = tree.get(i);
      if (e != curr
          && !(movable && e.task.onCpu())
          && e.task.nrAllowed() > 1
          && (forCpu < 0 || e.task.allowedOn(forCpu))) {
        return e;
      }
    }
    return null;
  }

  /** {@code dl_task_is_earliest_deadline()}: {@code deadline} would be the earliest on cpu. */
  boolean isEarliest(long deadline, int cpu) {
    DlEntity first = trees[cpu].first();
    return first == null || deadline - first.deadline < 0;
  }

  /**
   * {@code find_later_rq()}: a CPU where a task of this deadline would run earlier, seen from
   * {@code thisCpu}; -1 if none.
   */
  int findLaterRq(TaskView p, long deadline, int thisCpu) {
    if (p.nrAllowed() == 1) {
      return -1;
    }
    int cpu = p.cpu();
    if (!cpudl[rootOf[cpu]].find(p, deadline, later)) {
      return -1;
    }
    if (later.get(cpu)) {
      return cpu;
    }
    boolean thisOk = thisCpu >= 0 && later.get(thisCpu);
    int levels = m.nrDomains(cpu);
    for (int l = 0; l < levels; l++) {
      SchedDomainView sd = m.domain(cpu, l);
      if (thisOk && sd.contains(thisCpu)) {
        return thisCpu; // preempting this CPU is cheaper than migrating
      }
      for (int c = later.nextSetBit(0); c >= 0; c = later.nextSetBit(c + 1)) {
        if (sd.contains(c)) {
          return c;
        }
      }
    }
    return thisOk ? thisCpu : later.nextSetBit(0);
  }

  /** {@code find_lock_later_rq()}: a later runqueue on which {@code e} would be the earliest. */
  private int findLockLaterRq(DlEntity e, int cpu) {
    for (int tries = 0; tries < DL_MAX_TRIES; tries++) {
      int target = findLaterRq(e.task, e.deadline, cpu);
      if (target < 0 || target == cpu) {
        return -1;
      }
      if (!isEarliest(e.deadline, target)) {
        return -1;
      }
      return target; // with no race between the CPUs, the first try's answer stands
    }
    return -1;
  }

  /** {@code push_dl_tasks()}: push from {@code cpu} while a task goes. */
  void pushAll(int cpu, @Nullable TaskView curr) {
    for (int guard = 0; guard <= m.nrCpus() && push(cpu, curr); guard++) {
      // each push moves one task; stop when none can go
    }
  }

  /** {@code push_dl_task()}; {@code curr} is what {@code cpu} runs. True when a task moved. */
  boolean push(int cpu, @Nullable TaskView curr) {
    if (!overloaded[rootOf[cpu]].get(cpu)) {
      return false;
    }
    DlEntity next = earliestPushable(cpu, -1, true);
    if (next == null) {
      return false;
    }
    DlEntity c =
        curr != null && curr.policy() == Policy.DEADLINE ? DeadlineClass.entityOf(curr) : null;
    if (c != null && next.deadline - c.deadline < 0 && c.task.nrAllowed() > 1) {
      services.resched(cpu, ReschedReason.FORCE); // next preempts a curr that can move away
      return false;
    }
    int target = findLockLaterRq(next, cpu);
    if (target < 0) {
      return false;
    }
    services.counter("dl.pushes").increment();
    services.migrateQueued(next.task, target); // resched_curr(later_rq) by its wakeup preemption
    return true;
  }

  /** {@code pull_dl_task()}: {@code thisCpu}'s deadline tasks left or got later; pull earlier. */
  void pull(int thisCpu) {
    BitSet dlo = overloaded[rootOf[thisCpu]];
    if (dlo.isEmpty()) {
      return;
    }
    long dmin = 0;
    boolean pulled = false;
    for (int src = dlo.nextSetBit(0); src >= 0; src = dlo.nextSetBit(src + 1)) {
      DlEntity ours = trees[thisCpu].first();
      DlEntity theirs = earliestPushable(src, -1, false);
      if (src == thisCpu
          || theirs == null
          || (ours != null && ours.deadline - theirs.deadline < 0)) {
        continue; // nothing there earlier than what we have
      }
      DlEntity p = earliestPushable(src, thisCpu, true);
      if (trees[src].size() <= 1
          || p == null
          || (pulled && p.deadline - dmin >= 0)
          || !isEarliest(p.deadline, thisCpu)) {
        continue;
      }
      TaskView sc = m.cpu(src).rq().curr();
      DlEntity srcCurr = sc.policy() == Policy.DEADLINE ? DeadlineClass.entityOf(sc) : null;
      if (srcCurr != null && p.deadline - srcCurr.deadline < 0) {
        continue; // it is about to preempt its own CPU's task
      }
      services.counter("dl.pulls").increment();
      services.migrateQueued(p.task, thisCpu);
      dmin = p.deadline;
      pulled = true;
    }
  }
}
