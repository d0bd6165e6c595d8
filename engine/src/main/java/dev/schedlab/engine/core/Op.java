package dev.schedlab.engine.core;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import org.jspecify.annotations.Nullable;

/** One compiled step of a task program; the interpreter is {@link TaskExec}. */
final class Op {
  static final int USER = 0;
  static final int KSEG = 1;
  static final int SYSCALL_ENTER = 2;
  static final int SYSCALL_EXIT = 3;
  static final int SLEEP = 4;
  static final int SLEEP_UNTIL = 5;
  static final int BLOCK = 6;
  static final int WAKE = 7;
  static final int CALL = 8;

  /**
   * Runs {@link #body} {@link #count} times (at least once), then the next op. The body is an op
   * array of its own, shared by every place and task that runs the same loop.
   */
  static final int LOOP = 9;

  /**
   * A loop over the task's draw sequence {@link #draws}: for each value v, in order, runs {@code
   * choices[v]} (an op array shared like a loop's body), then the next op.
   */
  static final int PICK = 10;

  static final int MARK = 11;
  static final int EXIT = 12;

  /** Kthread loop: run the next queued work item, or sleep until one is queued. */
  static final int KWORK = 13;

  /** Compute until a wall-clock end (rt-app runtime). */
  static final int USER_WALL = 16;

  static final int YIELD = 17;
  static final int AFFINITY = 18;

  /** Absolute sleep to {@link #atNs}, skipped when already past. */
  static final int SLEEP_ABS = 19;

  /** Periodic timer decision: sets the task's timer target, or skips its sleep when missed. */
  static final int TIMER_ARM = 20;

  /** Absolute sleep to the target {@link #TIMER_ARM} chose. */
  static final int TIMER_SLEEP = 21;

  /** Wake one or all sleepers, no memory. */
  static final int SIGNAL = 22;

  /**
   * {@code pthread_cond_wait()}'s registration: queued on {@link #waitQueue}, still running; past
   * the whole wait by {@link #jump} when the PI mutex {@link #lockClass} is not the thread's.
   */
  static final int COND_QUEUE = 23;

  /**
   * {@code pthread_cond_wait()}'s {@code futex_wait()}: sleeps while still queued on {@link
   * #waitQueue}, returns at once when a signal took the task off it since {@link #COND_QUEUE}.
   */
  static final int COND_SLEEP = 39;

  static final int BARRIER = 24;
  static final int FORK = 25;
  static final int CLOCK = 26;
  static final int SLICE = 27;

  /** Wait until a send buffer ({@link #waitQueue}) is below {@link #limit}, then charge bytes. */
  static final int CHARGE = 28;

  /** Give {@link #bytes} back; at or below {@link #limit} charged, wake every waiter. */
  static final int UNCHARGE = 29;

  /**
   * A glibc mutex ({@link #waitQueue}'s futex word), from {@code pthread_mutex_lock()}: the
   * compare-and-swap 0 to 1 in user space, past the slow path by {@link #jump} when it succeeds.
   */
  static final int MUTEX_LOCK = 30;

  /** The slow path's exchange to 2: taken when the word was 0 (then past by {@link #jump}). */
  static final int MUTEX_XCHG = 31;

  /** {@code futex_wait()}: sleeps while the word is still 2, else returns at once. */
  static final int FUTEX_WAIT = 32;

  /** Back ({@link #jump}) to the exchange after {@code futex_wait()} returned. */
  static final int MUTEX_RETRY = 33;

  /** {@code pthread_mutex_unlock()}: the word to 0; past the wake by {@link #jump} if it was 1. */
  static final int MUTEX_UNLOCK = 34;

  /** {@code futex_wake()} of one sleeper. */
  static final int FUTEX_WAKE = 35;

  /** A PI futex's user-space lock ({@link #lockClass}), past the syscall by {@link #jump}. */
  static final int PI_USER_LOCK = 36;

  /** A PI futex's user-space unlock, past the syscall by {@link #jump} while nobody waits. */
  static final int PI_USER_UNLOCK = 37;

  /** {@code sched_move_task()} of the running thread to task group {@link #count}. */
  static final int CGROUP = 38;

  /**
   * rt-app's barrier under its mutex ({@link #barrier}): on to the broadcast when every other user
   * waits, else counted in and past it by {@link #jump} to the condition wait.
   */
  static final int BARRIER_ARRIVE = 45;

  /** rt-app's barrier: a woken waiter, the mutex retaken, counts itself out. */
  static final int BARRIER_LEAVE = 46;

  /** On by {@link #jump}. */
  static final int JUMP = 47;

  /**
   * {@code sched_setaffinity()}'s {@code wait_for_completion()}: sleeps until the stopper moved the
   * task, unless it did already.
   */
  static final int AFFINITY_WAIT = 48;

  /**
   * A cgroup write's {@code cgroup_attach_lock()}: enters the threadgroup rwsem's {@link RcuSync},
   * sleeping for a grace period when it was idle.
   */
  static final int CGROUP_LOCK = 49;

  /** STAMP: remember now in {@link #stamp}; SINCE: record now minus it into {@link #sample}. */
  static final int STAMP = 14;

  static final int SINCE = 15;

  /** Take a kernel lock ({@link Locks}); may spin or sleep. */
  static final int LOCK = 40;

  /** Release a kernel lock. */
  static final int UNLOCK = 41;

  /** A per-CPU cache get or put; runs or skips the refill/drain items after it. */
  static final int CACHE = 42;

  /** {@code call_rcu()} of {@link #count} callbacks costing {@link #costNs} each ({@link Rcu}). */
  static final int CALL_RCU = 43;

  /** The ksoftirqd loop: run the CPU's pending softirqs, or sleep until some are left to it. */
  static final int KSOFTIRQD = 44;

  /**
   * A message through a socket's receive queue ({@link #waitQueue}): written ({@link #flag}) or
   * read and freed; {@link #count} lines of its own and {@link #sharedLines} of the socket ({@link
   * SocketLines}).
   */
  static final int MESSAGE = 50;

  final int code;
  Dist dist;
  boolean preemptible = true;
  boolean irqsOff;

  /** Preemption point at the end of a kernel segment, or null. */
  @Nullable PreemptPoint endsWith;

  long periodNs;
  int count;

  /**
   * Relative: CACHE past its items, TIMER_ARM past the sleep, the mutex ops past or back along
   * their slow path.
   */
  int jump;

  int cpu;
  long costNs;
  boolean flag;

  /** MESSAGE: lines of the socket both sides write per message. */
  int sharedLines;

  WaitQueue waitQueue;

  /** LOOP: the ops of one iteration. */
  Op[] body;

  /** LOOP, PICK: the deepest nesting of loops from this one in (1 for a body with no loop). */
  int nesting;

  /** PICK: the bodies the task's draws choose from. */
  Op[][] choices;

  /** PICK: the index of the task's draw sequence ({@link Task#draws}). */
  int draws;

  MetricCounter counter;

  /** MARK: occurrences before this time after {@link #stamp} are not counted (a warm-up). */
  long countFromNs;

  /** Series recorded at return to user after this sleep, or null. */
  @Nullable SampleSeries sample;

  /** Timer-stage series of a periodic sleep (timerlat's IRQ, Thread, Ret user), or null. */
  @Nullable SampleSeries irqSample;

  @Nullable SampleSeries threadSample;
  @Nullable SampleSeries retUserSample;

  /** CHARGE, UNCHARGE: the buffer's bytes, and the limit (CHARGE) or wake mark (UNCHARGE). */
  long bytes;

  long limit;

  /** SLEEP_ABS: the absolute time. */
  long atNs;

  /** AFFINITY: the new mask. */
  java.util.BitSet cpus;

  /** TIMER_ARM: the timer and how to use it. */
  RtTimer timer;

  boolean relative;
  long firstNs;

  BarrierState barrier;

  /** FORK: the template, the child's name prefix and the first index. */
  String template;

  String namePrefix;

  /** CLOCK's series, or TIMER_ARM's slack series; TIMER_ARM's wake series. */
  @Nullable TimeSeries times;

  @Nullable TimeSeries times2;

  /**
   * STAMP, SINCE and MARK: the named timestamp (one slot, shared by the scenario's tasks);
   * SLEEP_ABS and TIMER_ARM: the time their absolute expiry counts from.
   */
  long[] stamp;

  /** LOCK, UNLOCK: the lock, and the API variant ({@code _irqsave}, {@code down_read}). */
  LockClass lockClass;

  boolean lockIrqs;
  boolean lockRead;

  /** LOCK: cache lines of the protected data the critical section writes. */
  int lockLines;

  /** CACHE: the per-CPU cache and the get or put; {@link #jump} is the skip target. */
  CacheOp cache;

  /** KSEG: the duration is per object the task's last CACHE op moved. */
  boolean perCached;

  /** A per-CPU cache operation: the cache (per CPU, shared by name) and its numbers. */
  record CacheOp(
      PerCpuCache cache,
      boolean put,
      int count,
      int batch,
      int high,
      StepSpec.@Nullable AutoHigh auto) {}

  // The operands of the op's code are set by the program compiler; the others stay unset.
  @SuppressWarnings("NullAway.Init")
  Op(int code) {
    this.code = code;
  }

  /** The deepest nesting of loops in {@code program}. */
  static int loopNesting(Op[] program) {
    int max = 0;
    for (Op op : program) {
      if (op.code == LOOP || op.code == PICK) {
        max = Math.max(max, op.nesting);
      }
    }
    return max;
  }
}
