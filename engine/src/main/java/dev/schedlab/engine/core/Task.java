package dev.schedlab.engine.core;

import dev.schedlab.api.LoadWeights;
import dev.schedlab.api.Policy;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TaskState;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/** A simulated task ({@code task_struct}) with its program and thread flags. */
final class Task implements TaskView {
  final int pid;
  final String comm;
  final Policy policy;
  final int nice;
  final int rtPriority;
  final long dlRuntime;
  final long dlDeadline;
  final long dlPeriod;

  // HotSpot lays out the longs first, then the ints, booleans and references, each group in
  // declaration order. The longs a switch-in reads (execStart to wallEnd) are declared after these
  // cold ones and mm beside locks, so the next task's fields it touches span fewer cache lines.

  /**
   * {@code current->timer_slack_ns}, or -1 for the kernel's default ({@code sched.timer_slack}).
   */
  long timerSlackNs = -1;

  /** When it last became runnable or was last put back while runnable (the watchdog's clock). */
  long runnableAt;

  /** Custom slice ({@code sched_attr.sched_runtime} of a fair task), 0 = the base slice. */
  long customSlice;

  /** Affinity; replaced (never mutated) by sched_setaffinity. */
  BitSet allowed;

  int nrAllowed;
  final boolean kthread;
  final boolean idleTask;
  final int mmId;

  /**
   * The ops being run: the compiled program (shared with every task of an equal program), or the
   * body of the loop being run.
   */
  Op[] program;

  /** Iterations left of the loops being run, innermost last ({@link #loopDepth} of them). */
  final int[] loopLeft;

  /** The loop state of a program without loops (shared: nothing is ever stored in it). */
  private static final int[] NO_LOOPS = {};

  private static final Op[][] NO_CALLERS = {};

  /** The ops each loop being run was started from, and the index of the op after it there. */
  final Op[][] loopCaller;

  final int[] loopReturn;

  int loopDepth;

  /** The values the task's PICK ops read, by draw sequence index (set by the task factory). */
  int[][] draws = NO_DRAWS;

  private static final int[][] NO_DRAWS = {};

  final SplittableRandom rng;

  /** The class the task belongs to. */
  SchedulingClass sclass;

  int classRank;

  /** Kernel locks held and waited for. */
  final TaskLocks locks = new TaskLocks();

  /** Its address space (null for kernel threads). */
  @Nullable Mm mm;

  /**
   * The rtmutex waiter lending this task its priority (priority inheritance, PREEMPT_RT), or null:
   * {@link #policy()}, {@link #rtPriority()} and the deadline parameters are then the donor's.
   */
  @Nullable Task boost;

  /** Class data of the classes the task left while boosted, restored when it returns. */
  java.util.@Nullable IdentityHashMap<SchedulingClass, Object> parkedClassData;

  TaskState state = TaskState.RUNNING;
  boolean onRq;
  boolean onCpu;

  /** Its class kept it queued on a blocking dequeue ({@code se.sched_delayed}). */
  boolean delayed;

  int cpu;
  long sumExec;
  long execStart;
  @Nullable Object classData;

  /** Its task group (0: the root). */
  int taskGroup;

  // thread_info flags
  boolean needResched;
  boolean needReschedLazy;
  boolean polling;
  boolean notifyResume;

  // program interpreter state
  int pc;
  boolean inKernel;

  /** Objects the task's last per-CPU cache op moved (a perCached segment's multiplier). */
  int cacheMoved;

  /** Time left of the interrupted timed op, or -1 when the op at pc has not started. */
  long opRemaining = -1;

  /** Expiry of the last sleep timer armed. */
  long timerExpiry;

  /** The CPU it is on when created (it existed before the run), or -1: placed as a new task. */
  int startCpu = -1;

  /**
   * Created at the run's start on {@link #startCpu}: a task that existed before the run (an
   * imported trace's), queued as a woken task rather than a fork.
   */
  boolean existedBefore;

  /** It exists asleep in its first step when created (it slept before the run began). */
  boolean startAsleep;

  /** It is its start CPU's current task when the run starts (it ran there before the run began). */
  boolean startRunning;

  /** When the current syscall-shaped step entered the kernel. */
  long syscallStart;

  /**
   * The latency figures cyclictest and timerlat steps wait to record; made by the first sleep step
   * that samples ({@link #probe()}), so a task that samples nothing never reads one.
   */
  @Nullable LatencyProbe latency;

  /** The sleep hrtimer (created by the kernel after the task). */
  HrTimer sleepTimer;

  /** User-mode time left when an IRQ exit ran task_work first, or -1. */
  long userResume = -1;

  /** Whether SYSCALL_EXIT is being re-run after a reschedule. */
  boolean inTaskWork;

  /** Queued task_works (TIF_NOTIFY_RESUME), run at the next exit to user. */
  TaskWorkItem[] works = new TaskWorkItem[2];

  int nrWorks;

  /** {@code curr->cid_work} is queued. */
  boolean cidWorkQueued;

  /** Set while waiting in csd_lock_wait(). */
  boolean csdWaiting;

  /** The CALL op at pc has queued its CSD (the queueing part is done). */
  boolean csdQueued;

  /** Links in its runqueue's list of queued tasks (for load balancing). */
  @Nullable Task rqPrev;

  @Nullable Task rqNext;

  /** Counted in its runqueue's {@code Cpu.nrAboveFair} ({@link RunQueueList}). */
  boolean countedAboveFair;

  /** Whether its start event has come ({@code wake_up_new_task()}). */
  boolean started;

  /** The CPU its parent forked it on ({@code wake_up_new_task()} runs there), or -1. */
  int forkCpu = -1;

  /** Work queue of an engine kthread (rcuo, kworker), else null. */
  java.util.@Nullable ArrayDeque<WorkItem> workQueue;

  @Nullable WorkItem currentWork;

  /** USER_WALL: the wall-clock time the running compute op ends. */
  long wallEnd;

  /** An rt-app timer event's wait. */
  final RtAppTimerWait timerWait = new RtAppTimerWait();

  /** Its new affinity excludes its CPU: the stopper's {@code migration_cpu_stop()} is pending. */
  boolean affinityMovePending;

  // sclass and sleepTimer are set by the task factory (or the kernel builder) right after.
  @SuppressWarnings("NullAway.Init")
  Task(
      int pid,
      String comm,
      Policy policy,
      int nice,
      int rtPriority,
      long dlRuntime,
      long dlDeadline,
      long dlPeriod,
      BitSet allowed,
      boolean kthread,
      boolean idleTask,
      int mmId,
      Op[] program,
      SplittableRandom rng) {
    this.pid = pid;
    this.comm = comm;
    this.policy = policy;
    this.nice = nice;
    this.rtPriority = rtPriority;
    this.dlRuntime = dlRuntime;
    this.dlDeadline = dlDeadline;
    this.dlPeriod = dlPeriod;
    this.allowed = allowed;
    this.nrAllowed = allowed.cardinality();
    this.kthread = kthread;
    this.idleTask = idleTask;
    this.mmId = mmId;
    this.program = program;
    int nesting = Op.loopNesting(program);
    this.loopLeft = nesting == 0 ? NO_LOOPS : new int[nesting];
    this.loopCaller = nesting == 0 ? NO_CALLERS : new Op[nesting][];
    this.loopReturn = nesting == 0 ? NO_LOOPS : new int[nesting];
    this.rng = rng;
  }

  /**
   * Kernel priority as printed by sched_switch (prio 120 = nice 0; RT: 99 - rt_priority; DL: -1).
   */
  int prio() {
    return switch (policy()) {
      case DEADLINE -> -1;
      case FIFO, RR -> 99 - rtPriority();
      case STOP -> 0;
      default -> idleTask ? 120 : 120 + nice;
    };
  }

  /** Comm as the trace's line prefix prints it ({@code <idle>} for idle tasks). */
  String traceComm() {
    return idleTask ? "<idle>" : comm;
  }

  /** Pid as the trace prints it (0 for idle tasks). */
  int tracePid() {
    return idleTask ? 0 : pid;
  }

  /** Whether this is a CPU stopper kthread ({@code migration/N}). */
  boolean stopper() {
    return policy == Policy.STOP && kthread;
  }

  /** {@code task_work_add(TWA_RESUME)}. */
  void addTaskWork(TaskWorkItem w) {
    if (nrWorks == works.length) {
      works = java.util.Arrays.copyOf(works, nrWorks * 2);
    }
    works[nrWorks++] = w;
    notifyResume = true;
  }

  @Override
  public int pid() {
    return pid;
  }

  @Override
  public String comm() {
    return comm;
  }

  @Override
  public Policy policy() {
    return boost != null ? boost.policy() : policy;
  }

  /** Kernel priority without inheritance ({@code p->normal_prio}). */
  int normalPrio() {
    return switch (policy) {
      case DEADLINE -> -1;
      case FIFO, RR -> 99 - rtPriority;
      case STOP -> 0;
      default -> idleTask ? 120 : 120 + nice;
    };
  }

  @Override
  public int nice() {
    return nice;
  }

  @Override
  public int weight() {
    return LoadWeights.of(policy(), nice);
  }

  @Override
  public int rtPriority() {
    return boost != null ? boost.rtPriority() : rtPriority;
  }

  @Override
  public long dlRuntimeNs() {
    return boost != null ? boost.dlRuntimeNs() : dlRuntime;
  }

  @Override
  public long dlDeadlineNs() {
    return boost != null ? boost.dlDeadlineNs() : dlDeadline;
  }

  @Override
  public long dlPeriodNs() {
    return boost != null ? boost.dlPeriodNs() : dlPeriod;
  }

  @Override
  public long customSliceNs() {
    return customSlice;
  }

  @Override
  public int cpu() {
    return cpu;
  }

  @Override
  public boolean allowedOn(int c) {
    return allowed.get(c);
  }

  @Override
  public int nrAllowed() {
    return nrAllowed;
  }

  @Override
  public TaskState state() {
    return state;
  }

  @Override
  public boolean onRq() {
    return onRq;
  }

  @Override
  public boolean onCpu() {
    return onCpu;
  }

  @Override
  public boolean isKthread() {
    return kthread;
  }

  @Override
  public boolean isIdleTask() {
    return idleTask;
  }

  @Override
  public int mmId() {
    return mmId;
  }

  @Override
  public long sumExecNs() {
    return sumExec;
  }

  @Override
  public @Nullable Object classData() {
    return classData;
  }

  @Override
  public void setClassData(@Nullable Object data) {
    classData = data;
  }

  @Override
  public int taskGroup() {
    return taskGroup;
  }

  @Override
  public dev.schedlab.api.view.LoadAvgView loadAvg() {
    return sclass instanceof dev.schedlab.api.LoadTracking lt
        ? lt.taskAvg(this)
        : dev.schedlab.api.view.LoadAvgView.ZERO;
  }

  @Override
  public String toString() {
    return comm + "-" + pid;
  }

  /** {@link #latency}, made on first use. */
  LatencyProbe probe() {
    LatencyProbe p = latency;
    if (p == null) {
      p = new LatencyProbe();
      latency = p;
    }
    return p;
  }
}
