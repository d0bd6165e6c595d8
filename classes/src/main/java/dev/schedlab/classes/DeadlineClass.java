package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TimerHandle;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * SCHED_DEADLINE: per-runqueue EDF over absolute deadlines with CBS bandwidth enforcement.
 *
 * <p>Models: EDF pick of the earliest deadline (the running task stays in the EDF array, like the
 * kernel's dl_rq tree); the CBS wakeup rule; a fresh period on the first enqueue; runtime charged
 * in {@link #updateCurr}; throttling when runtime reaches 0 (the task leaves the EDF array but
 * stays queued for the engine) with a per-task replenishment timer at the next period start; wakeup
 * preemption by an earlier deadline.
 *
 * <p>Global EDF between runqueues ({@link DlBalance}): the cpudl heap and overload mask, push after
 * a wakeup behind a deadline task ({@code task_woken_dl()}), after a pick (the balance callback of
 * {@code set_next_task_dl()}) and after a replenishment; pull when the running deadline task leaves
 * the dl_rq ({@code balance_dl()}). {@link #selectCpu} is {@code select_task_rq_dl()}: fork stays
 * on the parent's CPU; a woken task leaves its CPU only when that CPU runs a deadline task it would
 * not preempt (or a pinned one), for {@code find_later_rq()}'s CPU. {@link #yieldTask} throttles
 * the task to its next period.
 *
 * <p>Does not model: admission control, GRUB, PI boosting, dl_server, HRTICK_DL, capacity
 * awareness, the pull from {@code switched_from_dl()} and {@code prio_changed_dl()} (tasks do not
 * change policy or parameters in a run). A timer is bound to the CPU where the task first
 * throttled; it acts on the CPU the task is queued on.
 *
 * <p>Kernel reference: {@code kernel/sched/deadline.c} ({@code enqueue_dl_entity}, {@code
 * update_curr_dl_se}, {@code start_dl_timer}, {@code dl_task_timer}, {@code wakeup_preempt_dl},
 * {@code select_task_rq_dl}, {@code task_woken_dl}, {@code balance_dl}).
 */
public final class DeadlineClass implements SchedulingClass {
  private SchedServices services;
  private MachineView machine;
  private DeadlineArray<DlEntity>[] trees;
  private int[] nrQueued;
  private DlBalance balance;

  @Override
  public String name() {
    return "deadline";
  }

  @Override
  public int rank() {
    return RANK_DEADLINE;
  }

  @Override
  public boolean handles(Policy policy) {
    return policy == Policy.DEADLINE;
  }

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
  public void init(MachineView machine, SchedServices services) {
    this.machine = machine;
    this.services = services;
    trees = new DeadlineArray[machine.nrCpus()];
    nrQueued = new int[machine.nrCpus()];
    for (int i = 0; i < trees.length; i++) {
      trees[i] = new DeadlineArray<>();
    }
    balance = new DlBalance(machine, services, trees);
  }

  static @Nullable DlEntity entityOf(@Nullable TaskView p) {
    return p != null && p.classData() instanceof DlEntity ? (DlEntity) p.classData() : null;
  }

  private DlEntity entityFor(TaskView p) {
    DlEntity dl = entityOf(p);
    if (dl == null) {
      dl = new DlEntity(p);
      p.setClassData(dl);
    }
    return dl;
  }

  @Override
  public void enqueue(RqView rq, TaskView p, int flags) {
    DlEntity dl = entityFor(p);
    long now = rq.clock();
    dl.cpu = rq.cpu();
    if (!dl.onRq) {
      nrQueued[rq.cpu()]++;
      dl.onRq = true;
    }
    if (dl.fresh || (flags & SchedFlags.ENQUEUE_INITIAL) != 0) {
      dl.newPeriod(now); // setup_new_dl_entity()
      dl.fresh = false;
    } else if ((flags & SchedFlags.ENQUEUE_WAKEUP) != 0) {
      dl.updateOnWakeup(now);
    }
    if (dl.throttled) {
      if (dl.timer != null && dl.timer.armed()) {
        return; // stays hidden until the replenishment timer puts it back
      }
      dl.replenish(now);
    }
    insert(dl);
  }

  @Override
  public boolean dequeue(RqView rq, TaskView p, int flags) {
    DlEntity dl = entityOf(p);
    if (dl != null) {
      remove(dl);
      if (dl.onRq) {
        nrQueued[rq.cpu()]--;
        dl.onRq = false; // a pending replenishment timer stays armed, as in the kernel
      }
    }
    return true;
  }

  @Override
  public @Nullable TaskView pickNext(RqView rq) {
    DlEntity first = trees[rq.cpu()].first();
    return first == null ? null : first.task;
  }

  @Override
  public void putPrev(RqView rq, TaskView prev) {
    // put_prev_task_dl(): a queued prev becomes pushable again
    DlEntity e = entityOf(prev);
    if (e != null && balance.running(rq.cpu()) == e) {
      balance.setRunning(rq.cpu(), null);
    }
  }

  @Override
  public void setNext(RqView rq, TaskView next) {
    balance.setRunning(rq.cpu(), entityOf(next)); // set_next_task_dl(): curr is not pushable
  }

  @Override
  public void afterSwitch(RqView rq, TaskView next) {
    // deadline_queue_push_tasks(): the balance callback of set_next_task_dl()
    balance.setRunning(rq.cpu(), entityOf(next));
    balance.pushAll(rq.cpu(), next);
  }

  @Override
  public void taskWoken(RqView rq, TaskView p) {
    // task_woken_dl(): p waits behind a deadline task it does not preempt, or a pinned one: push
    TaskView curr = rq.curr();
    DlEntity pe = entityOf(p);
    DlEntity ce = entityOf(curr);
    if (pe != null
        && ce != null
        && curr.policy() == Policy.DEADLINE
        && !machine.cpu(rq.cpu()).needResched()
        && p.nrAllowed() > 1
        && (curr.nrAllowed() < 2 || pe.deadline - ce.deadline >= 0)) {
      balance.pushAll(rq.cpu(), curr);
    }
  }

  @Override
  public void balance(RqView rq, TaskView prev) {
    // balance_dl(): prev left the dl_rq (blocked or throttled): pull an earlier task here
    DlEntity e = entityOf(prev);
    if (e != null && !e.inTree) {
      balance.pull(rq.cpu());
    }
  }

  @Override
  public void tick(RqView rq, TaskView curr) {
    // task_tick_dl() only calls update_curr_dl(), which the engine already did.
  }

  @Override
  public void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {
    DlEntity dl = entityOf(curr);
    if (dl == null || !dl.inTree) {
      return; // like update_curr_dl(): only an entity on the dl_rq is charged
    }
    dl.runtime -= deltaExecNs;
    if (dl.runtime > 0 && !dl.yielded) {
      return;
    }
    long now = rq.clock();
    remove(dl);
    dl.throttled = true;
    long act = dl.nextPeriodStart();
    if (act - now > 0) {
      timerOf(dl).arm(act);
    } else {
      dl.replenish(now); // start_dl_timer() failed: the period is already over
      insert(dl);
    }
    if (trees[rq.cpu()].first() != dl) {
      services.resched(rq.cpu(), ReschedReason.FORCE);
    }
  }

  /**
   * {@code yield_task_dl()}: the task sleeps until its next period, its leftover runtime dropped at
   * the replenishment ({@code dl_yielded}; update_curr_dl() throttles it at once).
   */
  @Override
  public void yieldTask(RqView rq, TaskView curr) {
    DlEntity dl = entityOf(curr);
    if (dl == null || !dl.inTree) {
      return;
    }
    dl.yielded = true;
    updateCurr(rq, curr, 0);
  }

  private TimerHandle timerOf(DlEntity dl) {
    if (dl.timer == null) {
      // One timer per task, created lazily and re-armed: arming allocates nothing.
      dl.timer = services.newTimer(dl.cpu, (cpu, now) -> replenishTimer(dl, now));
    }
    return dl.timer;
  }

  /** {@code dl_task_timer()}: replenish and, if still queued, make the task runnable again. */
  void replenishTimer(DlEntity dl, long now) {
    if (!dl.throttled || entityOf(dl.task) != dl) {
      return; // already replenished, or the task left the class
    }
    dl.replenish(now);
    if (!dl.onRq) {
      return; // blocked while throttled: just refill
    }
    insert(dl);
    TaskView curr = machine.cpu(dl.cpu).rq().curr();
    DlEntity c = entityOf(curr);
    if (curr == null || curr.isIdleTask()) {
      services.resched(dl.cpu, ReschedReason.IDLE_CURR);
    } else if (c == null && curr.policy() != Policy.STOP) {
      services.resched(dl.cpu, ReschedReason.FORCE);
    } else if (c != null && (!c.inTree || dl.deadline - c.deadline < 0)) {
      services.resched(dl.cpu, ReschedReason.FORCE);
    }
    balance.push(dl.cpu, curr); // queueing it back may have overloaded the runqueue
  }

  @Override
  public void wakeupPreempt(RqView rq, TaskView p, int wakeFlags) {
    DlEntity pe = entityOf(p);
    DlEntity ce = entityOf(rq.curr());
    if (pe == null || ce == null || pe == ce || !pe.inTree) {
      return;
    }
    if (!ce.inTree || pe.deadline - ce.deadline < 0) {
      services.resched(rq.cpu(), ReschedReason.FORCE);
    }
  }

  @Override
  public int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags) {
    if (!p.allowedOn(prevCpu)) {
      return firstAllowed(p);
    }
    if ((wakeFlags & SchedFlags.WF_TTWU) == 0) {
      return prevCpu; // select_task_rq_dl(): fork and exec stay where they are
    }
    // A woken task leaves its CPU only when that CPU runs a deadline task it would not preempt
    // (or a pinned one), for find_later_rq()'s CPU if it would be the earliest there.
    TaskView curr = machine.cpu(prevCpu).rq().curr();
    DlEntity pe = entityOf(p);
    DlEntity ce = entityOf(curr);
    long deadline = pe == null ? 0 : pe.deadline;
    boolean select =
        ce != null
            && curr.policy() == Policy.DEADLINE
            && (curr.nrAllowed() < 2 || deadline - ce.deadline >= 0)
            && p.nrAllowed() > 1;
    if (select) {
      int target = balance.findLaterRq(p, deadline, wakerCpu);
      if (target >= 0 && balance.isEarliest(deadline, target)) {
        return target;
      }
    }
    return prevCpu;
  }

  private int firstAllowed(TaskView p) {
    for (int cpu = 0; cpu < machine.nrCpus(); cpu++) {
      if (p.allowedOn(cpu)) {
        return cpu;
      }
    }
    return 0;
  }

  @Override
  public int nrQueued(RqView rq) {
    return nrQueued[rq.cpu()]; // includes throttled tasks, which the engine still sees queued
  }

  private void insert(DlEntity dl) {
    if (!dl.inTree) {
      trees[dl.cpu].insert(dl);
      dl.inTree = true;
      balance.changed(dl.cpu);
    }
  }

  private void remove(DlEntity dl) {
    if (dl.inTree) {
      trees[dl.cpu].remove(dl);
      dl.inTree = false;
      balance.changed(dl.cpu);
    }
  }
}
