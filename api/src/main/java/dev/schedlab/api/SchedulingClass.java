package dev.schedlab.api;

import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import org.jspecify.annotations.Nullable;

/**
 * A scheduling class in the shape of the kernel's {@code struct sched_class}. The core asks the
 * loaded classes in descending {@link #rank()} order for the next task; a task of a higher-ranked
 * class always preempts a lower one on wakeup. Built-in classes (stop, deadline, rt, fair, idle)
 * are found with {@link java.util.ServiceLoader}; plugins add classes through {@link
 * dev.schedlab.api.plugin.Contributions#addSchedulingClass}.
 *
 * <p>All callbacks run on the simulation thread, with the runqueue "locked": a class may mutate its
 * own state and call {@link SchedServices} but must not block. Accounting reaches a class through
 * {@link #updateCurr}, which the core calls before {@link #tick}, {@link #putPrev}, {@link
 * #dequeue} of the running task, and {@link #wakeupPreempt}.
 */
public interface SchedulingClass {
  /** Rank of the stop class. */
  int RANK_STOP = 500;

  /** Rank of the deadline class. */
  int RANK_DEADLINE = 400;

  /** Rank of the real-time class. */
  int RANK_RT = 300;

  /** Rank of the fair (EEVDF) class. */
  int RANK_FAIR = 200;

  /** Rank of sched_ext-like extension classes: below fair, above idle. */
  int RANK_EXT = 100;

  /** Rank of the idle class. */
  int RANK_IDLE = 0;

  /** Short name, for example {@code fair}; unique among loaded classes. */
  String name();

  /** Position among classes; higher runs first. */
  int rank();

  /** Whether tasks of this policy belong to this class. */
  boolean handles(Policy policy);

  /** Called once before the run starts. */
  default void init(MachineView machine, SchedServices services) {}

  /** {@code enqueue_task}: {@code p} becomes queued on {@code rq}. */
  void enqueue(RqView rq, TaskView p, int flags);

  /**
   * {@code dequeue_task}. Returns false when the class keeps the task queued as a delayed dequeue
   * (EEVDF {@code DELAY_DEQUEUE}); it must later call {@link SchedServices#completeDelayedDequeue}
   * when it really removes it.
   */
  boolean dequeue(RqView rq, TaskView p, int flags);

  /** {@code pick_next_task}: the task to run next, or null when the class has none. */
  @Nullable TaskView pickNext(RqView rq);

  /** {@code put_prev_task}: {@code prev} stops being the running task. */
  void putPrev(RqView rq, TaskView prev);

  /** {@code set_next_task}: {@code next} becomes the running task. */
  void setNext(RqView rq, TaskView next);

  /** {@code task_tick}: the periodic tick hit while {@code curr} ran. */
  void tick(RqView rq, TaskView curr);

  /** {@code wakeup_preempt} for a woken task of this same class as {@code rq.curr()}. */
  void wakeupPreempt(RqView rq, TaskView p, int wakeFlags);

  /**
   * {@code select_task_rq}: the CPU a waking task should be queued on.
   *
   * @param prevCpu the CPU the task last ran on
   * @param wakerCpu the CPU doing the wakeup ({@code smp_processor_id()})
   */
  int selectCpu(TaskView p, int prevCpu, int wakerCpu, int wakeFlags);

  /** {@code update_curr}: charge {@code deltaExecNs} of run time to the running task. */
  default void updateCurr(RqView rq, TaskView curr, long deltaExecNs) {}

  /**
   * {@code yield_task}: {@code curr}, just charged its run time, calls {@code sched_yield()}; the
   * engine calls {@code schedule()} next. The default does nothing (the RT classes' requeue at the
   * tail of the priority is the engine's). Since API 1.2.0.
   */
  default void yieldTask(RqView rq, TaskView curr) {}

  /** Number of this class's tasks queued on {@code rq} (including a running one). */
  int nrQueued(RqView rq);

  /**
   * {@code balance()}: called before {@code pick_next_task()} when {@code prev} is of this class,
   * for example to pull tasks from other runqueues as {@code balance_rt()} does when the CPU's
   * priority drops. Since API 1.2.0.
   */
  default void balance(RqView rq, TaskView prev) {}

  /**
   * {@code task_woken()}: {@code p} of this class was woken onto {@code rq} and does not run there
   * yet (for example to push it elsewhere). Since API 1.2.0.
   */
  default void taskWoken(RqView rq, TaskView p) {}

  /**
   * The balance callback queued by {@code set_next_task()}: {@code next} of this class was just
   * picked on {@code rq} (for example to push tasks it keeps waiting). Since API 1.2.0.
   */
  default void afterSwitch(RqView rq, TaskView next) {}
}
