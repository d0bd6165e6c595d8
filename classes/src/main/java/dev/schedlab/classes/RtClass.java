package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * SCHED_FIFO and SCHED_RR.
 *
 * <p>Models: 99 priority FIFOs per runqueue, pick of the highest priority head (the running task
 * stays at its place in its list, so a preempted task resumes first); the RR timeslice ({@code
 * sched.rr_timeslice}, converted to ticks) consumed in {@link #tick}, with requeue at the tail and
 * a reschedule when others share the priority; wakeup preemption by a strictly higher priority;
 * per-runqueue RT bandwidth throttling: RT run time is summed in {@link #updateCurr}, and when it
 * exceeds {@code sched.rt_runtime} within {@code sched.rt_period} the class returns no task until
 * its per-runqueue period timer refunds one period's budget (disabled when runtime is negative or
 * not below the period).
 *
 * <p>Push and pull between runqueues ({@link RtBalance}); {@link #selectCpu} places a waking task
 * on prevCpu unless it runs an equal or higher RT/DL/stop task, else on the allowed CPU running the
 * lowest level.
 *
 * <p>Does not model: RT_PUSH_IPI, capacity-aware placement, group scheduling, priority inheritance,
 * the fair dl_server, yield.
 *
 * <p>Kernel reference: {@code kernel/sched/rt.c} ({@code pick_next_rt_entity}, {@code
 * task_tick_rt}, {@code wakeup_preempt_rt}, {@code sched_rt_runtime_exceeded}, {@code
 * do_sched_rt_period_timer}, {@code select_task_rq_rt}, {@code balance_rt}, {@code task_woken_rt}).
 */
public final class RtClass implements SchedulingClass {
  private SchedServices services;
  private MachineView machine;
  private RtRq[] rqs;
  private long rrTicks;
  private long rtPeriod;
  private long rtRuntime;
  private boolean bandwidth;
  private RtBalance push;

  @Override
  public String name() {
    return "rt";
  }

  @Override
  public int rank() {
    return RANK_RT;
  }

  @Override
  public boolean handles(Policy policy) {
    return policy == Policy.FIFO || policy == Policy.RR;
  }

  @Override
  public void init(MachineView machine, SchedServices services) {
    this.machine = machine;
    this.services = services;
    rrTicks = Math.max(1, services.param("sched.rr_timeslice") / machine.tickNs());
    rtPeriod = services.param("sched.rt_period");
    rtRuntime = services.param("sched.rt_runtime");
    bandwidth = rtRuntime >= 0 && rtRuntime < rtPeriod; // RUNTIME_INF or runtime == period: off
    rqs = new RtRq[machine.nrCpus()];
    for (int i = 0; i < rqs.length; i++) {
      rqs[i] = new RtRq();
    }
    push = new RtBalance(machine, services, rqs);
  }

  static @Nullable RtEntity entityOf(@Nullable TaskView p) {
    return p != null && p.classData() instanceof RtEntity ? (RtEntity) p.classData() : null;
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    RtEntity e = entityOf(p);
    if (e == null) {
      e = new RtEntity(p, rrTicks);
      p.setClassData(e);
    }
    if (e.onRq) {
      return;
    }
    e.prio = Math.max(1, Math.min(RtRq.MAX_PRIO, p.rtPriority()));
    e.cpu = rq.cpu();
    e.onRq = true;
    RtRq q = rqs[rq.cpu()];
    q.addTail(e);
    if (p.nrAllowed() > 1) {
      q.nrMigratory++;
    }
    push.updateOverload(rq.cpu());
    startBandwidthTimer(rq.cpu(), q);
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    RtEntity e = entityOf(p);
    if (e != null && e.onRq) {
      rqs[e.cpu].remove(e);
      if (p.nrAllowed() > 1) {
        rqs[e.cpu].nrMigratory--;
      }
      push.updateOverload(e.cpu);
      e.onRq = false;
    }
    return true;
  }

  @Override
  public void balance(RqView rq, TaskView prev) {
    // balance_rt(): prev left the RT queue and what is left here runs below it: pull.
    RtEntity e = entityOf(prev);
    RtRq q = rqs[rq.cpu()];
    if (e != null && !e.onRq && q.highestPrio() < e.prio) {
      push.pull(rq.cpu(), Math.max(0, q.highestPrio()));
    }
  }

  @Override
  public void taskWoken(RqView rq, TaskView p) {
    // task_woken_rt(): p waits behind an RT/DL task that will not make room soon: push.
    TaskView curr = rq.curr();
    int level = CurrLevel.of(curr);
    boolean rtOrDl = level >= 1 && level <= CurrLevel.DEADLINE;
    if (!machine.cpu(rq.cpu()).needResched()
        && p.nrAllowed() > 1
        && rtOrDl
        && (curr.nrAllowed() < 2 || level >= p.rtPriority())) {
      push.push(rq.cpu(), curr);
    }
  }

  @Override
  public void afterSwitch(RqView rq, TaskView next) {
    push.push(rq.cpu(), next); // rt_queue_push_tasks()
  }

  @Override
  public @Nullable TaskView pickNext(RqView rq) {
    RtRq q = rqs[rq.cpu()];
    if (q.throttled) {
      return null; // rt_rq dequeued by sched_rt_rq_dequeue() until the period timer
    }
    RtEntity e = q.first();
    return e == null ? null : e.task;
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {}

  @Override
  public void setNext(RqView rq, TaskView next) {}

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    if (!bandwidth || entityOf(curr) == null) {
      return;
    }
    RtRq q = rqs[rq.cpu()];
    q.rtTime += deltaExecNs;
    if (!q.throttled && q.rtTime > rtRuntime) {
      q.throttled = true;
      services.counter("rt.throttled").increment();
      services.resched(rq.cpu(), ReschedReason.FORCE);
    }
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    RtEntity e = entityOf(curr);
    if (e == null || curr.policy() != Policy.RR || !e.onRq) {
      return; // FIFO tasks run until they block or are preempted
    }
    if (--e.timeSliceTicks > 0) {
      return;
    }
    e.timeSliceTicks = rrTicks;
    if (rqs[e.cpu].requeueTail(e)) {
      services.resched(rq.cpu(), ReschedReason.FORCE); // RT uses resched_curr(), never lazy
    }
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    if (p.rtPriority() > rq.curr().rtPriority()) {
      services.resched(rq.cpu(), ReschedReason.WAKEUP_SAME_CLASS);
    }
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    int prio = p.rtPriority();
    if (p.allowedOn(prevCpu) && CurrLevel.of(machine.cpu(prevCpu).rq().curr()) < prio) {
      return prevCpu;
    }
    int best = -1;
    int bestLevel = Integer.MAX_VALUE;
    for (int cpu = 0; cpu < machine.nrCpus(); cpu++) {
      int level = CurrLevel.of(machine.cpu(cpu).rq().curr());
      if (p.allowedOn(cpu) && level < bestLevel) {
        best = cpu;
        bestLevel = level;
      }
    }
    if (best >= 0 && (bestLevel < prio || !p.allowedOn(prevCpu))) {
      return best;
    }
    return p.allowedOn(prevCpu) || best < 0 ? prevCpu : best;
  }

  @Override
  public int nrQueued(RqView rq) {
    return rqs[rq.cpu()].nrQueued;
  }

  private void startBandwidthTimer(int cpu, RtRq q) {
    if (!bandwidth) {
      return;
    }
    if (q.periodTimer == null) {
      q.periodTimer = services.newTimer(cpu, (c, now) -> periodTimer(c, now));
    }
    if (!q.periodTimer.armed()) {
      q.periodTimer.arm(services.now() + rtPeriod);
    }
  }

  /** {@code do_sched_rt_period_timer()} for one runqueue. */
  void periodTimer(int cpu, long now) {
    RtRq q = rqs[cpu];
    q.rtTime -= Math.min(q.rtTime, rtRuntime);
    if (q.throttled && q.rtTime < rtRuntime) {
      q.throttled = false;
      RtEntity head = q.first();
      TaskView curr = machine.cpu(cpu).rq().curr();
      if (head != null && CurrLevel.of(curr) < head.prio) {
        boolean idle = curr == null || curr.isIdleTask();
        services.resched(cpu, idle ? ReschedReason.IDLE_CURR : ReschedReason.FORCE);
      }
    }
    if (q.rtTime > 0 || q.throttled || q.nrQueued > 0) {
      // otherwise the timer goes idle until the next enqueue; this is its callback, so it exists
      Objects.requireNonNull(q.periodTimer).arm(now + rtPeriod);
    }
  }
}
