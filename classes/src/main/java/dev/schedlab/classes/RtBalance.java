package dev.schedlab.classes;

import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * RT push and pull between runqueues.
 *
 * <p>Models: pushable tasks (queued, not running, allowed on more than one CPU); the overload mask
 * ({@code rto_mask}: more than one RT task queued, one of them migratable); {@code push_rt_task()}
 * of the highest pushable task to {@code find_lowest_rq()}'s CPU (the allowed CPUs at the lowest
 * {@code cpupri} level below the task's, preferring the task's CPU, then the waking CPU within the
 * task CPU's domains, then the first of the lowest domain that has one), from {@code
 * task_woken_rt()} and after a pick ({@code rt_queue_push_tasks()}); {@code pull_rt_task()} from
 * {@code balance_rt()} when a CPU's RT priority drops: from every overloaded runqueue the highest
 * pushable task that would run here and does not preempt its own CPU's task.
 *
 * <p>Does not model: RT_PUSH_IPI (the pull is done directly instead of by IPIs to the overloaded
 * CPUs), {@code cpumask_any_distribute()}'s rotation (the lowest CPU id is taken), migration
 * disabled tasks, capacity awareness.
 *
 * <p>Kernel reference: {@code kernel/sched/rt.c} ({@code push_rt_task}, {@code find_lowest_rq},
 * {@code pull_rt_task}, {@code task_woken_rt}, {@code balance_rt}), {@code kernel/sched/cpupri.c}.
 */
final class RtBalance {
  private final MachineView m;
  private final SchedServices services;
  private final RtRq[] rqs;

  /** {@code rd->rto_mask}. */
  private final BitSet rto = new BitSet();

  RtBalance(MachineView m, SchedServices services, RtRq[] rqs) {
    this.m = m;
    this.services = services;
    this.rqs = rqs;
  }

  /** {@code update_rt_migration()}: keeps the overload mask. */
  void updateOverload(int cpu) {
    RtRq q = rqs[cpu];
    rto.set(cpu, q.nrQueued > 1 && q.nrMigratory > 0);
  }

  /** {@code cpupri}: fair and idle CPUs share the lowest level; then RT by priority; DL above. */
  private int cpuPri(int cpu) {
    int level = Math.max(CurrLevel.of(m.cpu(cpu).rq().curr()), CurrLevel.FAIR);
    RtRq q = rqs[cpu];
    return q.throttled ? level : Math.max(level, q.highestPrio());
  }

  /** The highest-priority pushable task on {@code cpu} (allowed on {@code forCpu} when >= 0). */
  private @Nullable RtEntity pushable(int cpu, TaskView curr, int forCpu) {
    return rqs[cpu].highestMatching(
        e -> e.task != curr && e.task.nrAllowed() > 1 && (forCpu < 0 || e.task.allowedOn(forCpu)));
  }

  /** {@code push_rt_tasks()}: push while one goes; {@code curr} is what runs on {@code cpu}. */
  void push(int cpu, TaskView curr) {
    for (int guard = 0; guard < rqs.length + 1 && pushOne(cpu, curr); guard++) {
      // each push moves one task; stop when none can go
    }
  }

  private boolean pushOne(int cpu, TaskView curr) {
    if (!rto.get(cpu)) {
      return false;
    }
    RtEntity next = pushable(cpu, curr, -1);
    if (next == null) {
      return false;
    }
    if (next.prio > CurrLevel.of(curr)) {
      services.resched(cpu, ReschedReason.FORCE); // it slipped in above curr: just reschedule
      return false;
    }
    int lowest = findLowest(next.task, cpu);
    if (lowest < 0) {
      return false;
    }
    services.counter("rt.pushes").increment();
    services.migrateQueued(next.task, lowest);
    return true;
  }

  /** {@code find_lowest_rq()}: a CPU at the lowest cpupri level below the task's priority. */
  private int findLowest(TaskView p, int thisCpu) {
    int prio = Math.max(1, Math.min(RtRq.MAX_PRIO, p.rtPriority()));
    int lowest = Integer.MAX_VALUE;
    for (int c = 0; c < m.nrCpus(); c++) {
      if (p.allowedOn(c)) {
        lowest = Math.min(lowest, cpuPri(c));
      }
    }
    if (lowest >= prio) {
      return -1;
    }
    int taskCpu = p.cpu();
    if (inLowest(p, taskCpu, lowest)) {
      return taskCpu;
    }
    boolean thisOk = inLowest(p, thisCpu, lowest);
    int levels = m.nrDomains(taskCpu);
    for (int l = 0; l < levels; l++) {
      var sd = m.domain(taskCpu, l);
      if (thisOk && sd.contains(thisCpu)) {
        return thisCpu;
      }
      for (int c = sd.nextCpu(0); c >= 0; c = sd.nextCpu(c + 1)) {
        if (inLowest(p, c, lowest)) {
          return c;
        }
      }
    }
    if (thisOk) {
      return thisCpu;
    }
    for (int c = 0; c < m.nrCpus(); c++) {
      if (inLowest(p, c, lowest)) {
        return c;
      }
    }
    return -1;
  }

  private boolean inLowest(TaskView p, int cpu, int lowest) {
    return p.allowedOn(cpu) && cpuPri(cpu) == lowest;
  }

  /**
   * {@code pull_rt_task()}: this CPU's RT priority dropped to {@code thisPrio} (0 for none); take
   * the highest pushable task that would run here from every overloaded runqueue.
   */
  void pull(int thisCpu, int thisPrio) {
    if (rto.isEmpty()) {
      return;
    }
    int best = thisPrio;
    for (int c = rto.nextSetBit(0); c >= 0; c = rto.nextSetBit(c + 1)) {
      if (c == thisCpu) {
        continue;
      }
      TaskView srcCurr = m.cpu(c).rq().curr();
      RtEntity p = pushable(c, srcCurr, thisCpu);
      if (p == null || p.prio <= best || p.prio > CurrLevel.of(srcCurr)) {
        continue; // nothing better than ours, or it is about to preempt its own CPU
      }
      services.counter("rt.pulls").increment();
      services.migrateQueued(p.task, thisCpu);
      best = p.prio;
    }
  }
}
