package dev.schedlab.engine.core;

import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.engine.sim.Event;
import java.util.ArrayList;
import org.jspecify.annotations.Nullable;

/**
 * One CPU: its execution phase, pending interrupts, tick, CSD queue and runqueue ({@code struct
 * rq}).
 *
 * <p>Models: the CPU is always in exactly one phase (a task op, {@code __schedule()}, the idle
 * loop's entry, an idle state, its wake and exit, IRQ entry and body, the pre-idle spin);
 * interrupts are taken only in phases that run with IRQs on, otherwise they are latched until IRQs
 * are re-enabled; the runqueue's counts, capacities ({@code capacity_of()} after RT, DL and IRQ
 * pressure), {@code avg_idle} and nohz flags.
 *
 * <p>Does not model: {@code lost_idle_time} in the capacity left for fair tasks, and IRQ time
 * accounting ({@code CONFIG_IRQ_TIME_ACCOUNTING}: interrupt time is charged to the interrupted
 * task).
 *
 * <p>Kernel reference: {@code kernel/sched/sched.h} ({@code struct rq}), {@code
 * kernel/sched/fair.c} ({@code update_cpu_capacity}), {@code kernel/entry/common.c} ({@code
 * irqentry_enter}, {@code irqentry_exit}).
 */
final class Cpu implements CpuView, RqView {
  // phases
  static final int P_TASK = 1;
  static final int P_SCHED = 2;
  static final int P_IDLE_ENTER = 3;
  static final int P_IDLE_STATE = 4;
  static final int P_IDLE_WAKE = 5;
  static final int P_IDLE_EXIT = 6;
  static final int P_IRQ_ENTRY = 7;
  static final int P_IRQ_BODY = 8;
  static final int P_SPIN = 9;

  /** Saved phase only: the idle task is about to (re)start {@code do_idle()}. */
  static final int P_IDLE_TOP = 10;

  /** Metric names of the phases, by index (0: before the first phase). */
  static final String[] PHASE_NAMES = {
    "start",
    "task",
    "sched",
    "idle_enter",
    "idle_state",
    "idle_wake",
    "idle_exit",
    "irq_entry",
    "irq_body",
    "spin",
    "idle_top"
  };

  // interrupt vectors (pending bits)
  static final int IRQ_TIMER = 1;
  static final int IRQ_RESCHED = 2;
  static final int IRQ_CALL = 4;

  final int id;
  final int coreId;
  final int llcId;
  final int pkgId;
  final int nodeId;
  final boolean isolated;

  Task curr;
  Task idle;
  // Cache lines of cross-CPU calls (see CacheLine): this CPU's call_single_queue head, its idle
  // task's thread flags, its rq line with rq->idle and rq->clock, and the CSD on the stack of a
  // task here that waits for its call.
  final CacheLine callQueueLine = new CacheLine(this);
  final CacheLine idleFlagsLine = new CacheLine(this);
  final CacheLine rqIdleLine = new CacheLine(this);
  final CacheLine syncCsdLine = new CacheLine(this);

  // idle
  int idleStateIdx = -1;
  long idleEnteredAt;
  long sleepLengthAtEntry;

  /** When a busy-loop state gives up ({@code poll_idle()}'s time limit), or -1 for none. */
  long pollDeadline = -1;

  /** Up to when the current state's residency has been added to {@link #idleNs}. */
  long idleAccountedAt;

  // tick
  final Event tickEv;
  boolean tickStopped;
  boolean tickDue;

  /** {@code ts->got_idle_tick}: a tick was handled in the idle loop since the last reflect. */
  boolean gotIdleTick;

  final ArrayList<HrTimer> expired = new ArrayList<>();

  /**
   * Armed hrtimers on this CPU's base, in no order: a list through the timers themselves, as the
   * kernel's timerqueue links its nodes inside each hrtimer, so arming never allocates (a base
   * holds as many timers as are armed on it, no more room to grow into) and a fire or cancel
   * unlinks in O(1). The arming sequence number orders equal expiries as the base's list did.
   */
  private @Nullable HrTimer timerHead;

  int nrTimers;
  private long timerSeq;

  /** Puts {@code t}, whose event is scheduled, on this base. */
  void addTimer(HrTimer t) {
    if (t.baseCpu >= 0) {
      throw new IllegalStateException(
          "hrtimer of cpu " + t.cpu + " already on the base of cpu " + t.baseCpu);
    }
    t.baseCpu = id;
    t.baseSeq = timerSeq++;
    t.basePrev = null;
    t.baseNext = timerHead;
    if (timerHead != null) {
      timerHead.basePrev = t;
    }
    timerHead = t;
    nrTimers++;
  }

  /** Takes {@code t} off this base; a timer this base does not hold is left alone. */
  void removeTimer(HrTimer t) {
    if (t.baseCpu != id) {
      return;
    }
    HrTimer prev = t.basePrev;
    HrTimer next = t.baseNext;
    if (prev == null) {
      timerHead = next;
    } else {
      prev.baseNext = next;
    }
    if (next != null) {
      next.basePrev = prev;
    }
    t.basePrev = null;
    t.baseNext = null;
    t.baseCpu = -1;
    nrTimers--;
  }

  /** The armed hrtimer that fires first (equal expiries: the one armed first), or null. */
  @Nullable HrTimer earliestTimer() {
    @Nullable HrTimer first = null;
    for (HrTimer t = timerHead; t != null; t = t.baseNext) {
      if (first == null
          || t.event.time() < first.event.time()
          || (t.event.time() == first.event.time() && t.baseSeq < first.baseSeq)) {
        first = t;
      }
    }
    return first;
  }

  /**
   * Whether an armed hrtimer's soft expiry has passed at {@code now}. Reads the timers only, not
   * their events: the test before {@link #earliestTimer()} at an interrupt, where mostly none has.
   */
  boolean anySoftExpired(long now) {
    if (now < softExpiryFloor) {
      return false;
    }
    long floor = Long.MAX_VALUE;
    for (HrTimer t = timerHead; t != null; t = t.baseNext) {
      if (t.softExpiry <= now) {
        return true;
      }
      floor = Math.min(floor, t.softExpiry);
    }
    softExpiryFloor = floor;
    return false;
  }

  /**
   * A timer on this base was armed to {@code softExpiry}: lowers {@link #softExpiryFloor} to it.
   */
  void softExpiryArmed(long softExpiry) {
    softExpiryFloor = Math.min(softExpiryFloor, softExpiry);
  }

  /** Expiry of the earliest armed hrtimer (the tick aside), or {@link Long#MAX_VALUE}. */
  long nextTimerNs() {
    long next = Long.MAX_VALUE;
    for (HrTimer t = timerHead; t != null; t = t.baseNext) {
      next = Math.min(next, t.event.time());
    }
    return next;
  }

  final Event ipiResched;

  /**
   * A remote waker's write of {@code TIF_NEED_RESCHED} to {@link #reschedWriteFor}, landing at the
   * end of its activation ({@link Scheduler#setResched}).
   */
  final Event reschedWrite;

  /** The task the pending {@link #reschedWrite} flags, or null. */
  @Nullable Task reschedWriteFor;

  final Event ipiCall;

  // CSD queue (call_single_queue)
  @Nullable Csd csdHead;
  @Nullable Csd csdTail;

  // runqueue
  int nrRunning;

  /** Queued tasks of classes ranked above fair ({@link RunQueueList}). */
  int nrAboveFair;

  /** When a plugin's H1 pick override last chose the next task here (-1: never). */
  long overrideAt = -1;

  /** When this CPU last switched tasks. */
  long switchedAt;

  /** {@code cfs.h_nr_runnable}: queued fair tasks not kept by a delayed dequeue. */
  int fairNr;

  /** {@code rq->misfit_task_load}: the running fair task's load when it needs a bigger CPU. */
  long misfitTaskLoad;

  /** {@code rq->active_balance}: a stopper push from this CPU is queued. */
  boolean activeBalance;

  /** {@code rq->push_cpu}: where the active balance moves a task. */
  int pushCpu;

  /** The CPU stopper kthread ({@code migration/N}), created on first use. */
  @Nullable Task stopper;

  /** {@code distribute_cpu_mask_prev}: the CPU {@code cpumask_any_and_distribute()} gave last. */
  int distributePrev;

  /** Queued tasks (curr included while queued), oldest first. */
  @Nullable Task queuedHead;

  @Nullable Task queuedTail;

  /** sched domains of this CPU, lowest level first (empty for isolated CPUs). */
  SchedDomain[] domains = new SchedDomain[0];

  /** The sched groups this CPU is in, of every CPU's domains (empty for isolated CPUs). */
  GroupCapacity[] groupCaps = new GroupCapacity[0];

  long maxIdleBalanceCost;

  /** NOHZ_*_KICK flags ({@code nohz_flags(cpu)}). */
  int nohzFlags;

  /** Flags handed to SCHED_SOFTIRQ by nohz_csd_func ({@code rq->nohz_idle_balance}). */
  int nohzIdleBalance;

  boolean nohzTickStopped;
  boolean idleBalance;
  boolean hasBlockedLoad;
  long lastBlockedUpdate;
  boolean schedSoftirq;

  /**
   * {@code in_serving_softirq()} in ksoftirqd: an interrupt then leaves the raised softirqs to it.
   */
  boolean servingSoftirq;

  /** The softirq loop at an IRQ exit goes on: a softirq was raised again in its pass. */
  boolean irqSoftirqLoop;

  /** The running softirq loop's end ({@code MAX_SOFTIRQ_TIME}) and restarts left. */
  long softirqEndJiffy;

  long softirqRestarts;

  /** This CPU's ksoftirqd, created when first woken ({@link Interrupts}). */
  @Nullable Task ksoftirqd;

  /** RCU callbacks whose grace period ended, for RCU_SOFTIRQ ({@link Rcu}). */
  final java.util.ArrayDeque<WorkItem> rcuPending = new java.util.ArrayDeque<>();

  /** nohz_full: the tick is deferred while one task runs. */
  boolean fullTickStopped;

  long avgIdle;
  long idleStamp;
  boolean ttwuPending;

  /** The state the governor chose before a tick stop, entered after it; -1 otherwise. */
  int selectedState = -1;

  /** State being entered ({@code call_cpuidle()} to the state's entry), or -1. */
  int enteringState = -1;

  /** An interrupt was taken inside an IRQ-enabled state; the exit bookkeeping is still due. */
  boolean exitBookkeepingPending;

  /** The state whose reflect waits for the handler taken inside it to return, or -1. */
  int reflectPendingIdx = -1;

  /** A vCPU's KVM halt-polling window ({@code vcpu->halt_poll_ns}); see {@link HaltPolling}. */
  long haltPollNs;

  // schedule window
  @Nullable Task schedPrev;

  /**
   * A task that was current here before the run began (an imported trace's, {@code start_running}):
   * the first {@code __schedule()} here switches to it while it is queued.
   */
  @Nullable Task startCurr;

  /** The class of the task picked queued a balance callback (RT/DL push) for the window's end. */
  boolean balanceCallback;

  /** The window was extended by what the balance callbacks cost; finish() ends it. */
  boolean inBalanceCallbacks;

  long spinEnd;

  /** CPU time spun so far in the current spin, before its current stretch (IRQs excluded). */
  long spinDone;

  /** Whether the current spin's wakeup of prev was already counted. */
  boolean spinWokenCounted;

  // The phase, the IRQ state and the stall: read by nearly every event on this CPU. HotSpot lays
  // out a class's longs first, in declaration order, then its ints, booleans and references, so
  // the longs declared from here on (with the SMT rate and PELT clock below) sit next to those
  // and a CPU's hot fields span fewer cache lines; the cold longs (idle, balance, softirq) come
  // before.
  int phase;
  final Event phaseEv;
  long phaseStart;

  /**
   * CPU time in IRQ entry and handlers, phases ended so far (IRQ time for {@code avg_irq}); the
   * machine's time by phase is {@code Kernel.phaseNs}, so a phase change touches no per-CPU array.
   */
  long irqNs;

  /** The phase being accounted and since when (set only by {@code Kernel.setPhase}). */
  int accountedPhase;

  long accountedSince;

  /** Whether the running op has IRQs off / is preemptible / runs in user mode. */
  boolean opIrqsOff;

  boolean opPreemptible = true;
  boolean opUser;
  int pendingIrqs;

  /** The phase an interrupt interrupted, resumed at IRQ exit. */
  int savedPhase;

  long savedRemaining;

  /** Until when the CPU is stopped by the host or firmware ({@link HostInterference}). */
  long stalledUntil;

  /** When a guest timer expiry deferred for its exit to the host is injected. */
  long timerInjectAt = -1;

  /**
   * At most the soft expiry of every armed timer on this base: lowered by each arming, left as it
   * is when a timer leaves, and raised to the true minimum by a scan that finds none expired. So
   * {@link #anySoftExpired} answers from a field among this CPU's hot ones, reading no timer, until
   * the earliest soft expiry may have passed.
   */
  private long softExpiryFloor = Long.MAX_VALUE;

  // the tick's: the rq clock, the tick count and the next periodic balance
  long ticks;
  long clock;

  /**
   * {@code rq_clock_skip_update()}'s request ({@code RQCF_REQ_SKIP}): a wakeup set NEED_RESCHED on
   * a queued current task, so the next {@code __schedule()} keeps {@link #clock} as that wakeup
   * left it instead of reading the clock again.
   */
  boolean clockSkip;

  long nextBalance;

  // SMT throughput sharing
  /** This thread's demand on its core: 1 busy, a fraction when spinning or polling, 0 idle. */
  double smtLoad = 1;

  /** Speed of this thread: {@link #speed} x its share of its core (SMT). */
  double rate = 1;

  /** Compute speed alone on its core: capacity x frequency / 1024^2 (1 for the biggest CPU). */
  double speed = 1;

  /** Whether the current P_TASK phase is compute that runs at {@link #rate}. */
  boolean opScaled;

  /** Full-speed work left in the current scaled op at {@link #phaseStart}, ns. */
  double opWork;

  /** The CPUs of this CPU's core, itself included. */
  Cpu[] siblings;

  // PELT (update_rq_clock_pelt, rq->avg_rt/avg_dl/avg_irq)
  /** {@code arch_scale_cpu_capacity()}. */
  long capacityOrig = 1024;

  /** {@code capacity_of()}: left for fair tasks after RT/DL/IRQ ({@code update_cpu_capacity()}). */
  long capacity = 1024;

  /** {@code arch_scale_freq_capacity()}. */
  long freqCapacity = 1024;

  /**
   * The PELT clock at {@link #peltClockAt} (a value of {@link #clock}); see {@link #clockPelt()}.
   */
  long peltAt;

  long peltClockAt;
  final dev.schedlab.api.SchedAvg avgRt = new dev.schedlab.api.SchedAvg();
  final dev.schedlab.api.SchedAvg avgDl = new dev.schedlab.api.SchedAvg();
  final dev.schedlab.api.SchedAvg avgIrq = new dev.schedlab.api.SchedAvg();

  /** IRQ time already folded into {@link #avgIrq}, ns. */
  long irqTimeAccounted;

  /** The fair class's load tracking, for {@link #cfsAvg()} (null without one). */
  dev.schedlab.api.@Nullable LoadTracking fairLoad;

  // accounting
  long idleNs;

  /** This CPU's stream for kernel-path cost variation (split from the seed). */
  java.util.SplittableRandom rng = new java.util.SplittableRandom(0);

  // curr, idle and siblings are set by the kernel's builder before the run.
  @SuppressWarnings("NullAway.Init")
  Cpu(
      int id,
      int coreId,
      int llcId,
      int pkgId,
      int nodeId,
      boolean isolated,
      Event phaseEv,
      Event tickEv,
      Event ipiResched,
      Event ipiCall) {
    this.id = id;
    this.coreId = coreId;
    this.llcId = llcId;
    this.pkgId = pkgId;
    this.nodeId = nodeId;
    this.isolated = isolated;
    this.phaseEv = phaseEv;
    this.tickEv = tickEv;
    this.ipiResched = ipiResched;
    this.reschedWrite = new Event(EventLoop.EV_RESCHED_WRITE, id, null);
    this.ipiCall = ipiCall;
  }

  /** Whether the CPU can take an interrupt right now. */
  boolean irqsEnabled() {
    return (phase == P_TASK && !opIrqsOff) || phase == P_SPIN || phase == P_IDLE_STATE;
  }

  // ---- CpuView ----
  @Override
  public int id() {
    return id;
  }

  @Override
  public int coreId() {
    return coreId;
  }

  @Override
  public int llcId() {
    return llcId;
  }

  @Override
  public int packageId() {
    return pkgId;
  }

  @Override
  public int nodeId() {
    return nodeId;
  }

  @Override
  public RqView rq() {
    return this;
  }

  @Override
  public boolean isIdle() {
    return curr == idle && nrRunning == 0 && !ttwuPending;
  }

  /**
   * The machine's packed copy of {@link #isIdle()} by CPU id (the kernel's idle-CPU masks): wakeup
   * scans read it without touching this object. Set by {@code Kernel}.
   */
  long[] idleMap = new long[0];

  /** Refreshes {@link #idleMap} after {@code curr}, {@code nrRunning} or {@code ttwuPending}. */
  void idleChanged() {
    CpuMasks.assign(idleMap, id, isIdle());
  }

  @Override
  public boolean polling() {
    return curr.polling;
  }

  @Override
  public boolean needResched() {
    return curr.needResched;
  }

  @Override
  public int idleStateIndex() {
    return idleStateIdx;
  }

  @Override
  public boolean tickStopped() {
    return tickStopped;
  }

  @Override
  public boolean isolated() {
    return isolated;
  }

  @Override
  public boolean idleGotTick() {
    return gotIdleTick;
  }

  // ---- RqView ----
  @Override
  public int cpu() {
    return id;
  }

  @Override
  public int nrRunning() {
    return nrRunning;
  }

  @Override
  public TaskView curr() {
    return curr;
  }

  @Override
  public TaskView idle() {
    return idle;
  }

  @Override
  public long clock() {
    return clock;
  }

  @Override
  public long avgIdleNs() {
    return avgIdle;
  }

  @Override
  public long nextBalance() {
    return nextBalance;
  }

  @Override
  public boolean ttwuPending() {
    return ttwuPending;
  }

  /**
   * {@code rq_clock_pelt()}: while busy it advances at capacity x frequency / 1024^2 of the rq
   * clock; while idle it is the rq clock ({@code _update_idle_rq_clock_pelt()}: a CPU that idles
   * had no time stolen by a lower capacity). Does not model {@code lost_idle_time}.
   */
  @Override
  public long clockPelt() {
    if (curr == idle) {
      return clock;
    }
    long scale = capacityOrig * freqCapacity;
    if (scale == 1024L * 1024L) {
      return clock;
    }
    return peltAt + (clock - peltClockAt) * scale / (1024L * 1024L);
  }

  /** Restarts {@link #clockPelt()}'s busy segment at the current rq clock (idle/busy switches). */
  void syncClockPelt() {
    peltAt = clockPelt();
    peltClockAt = clock;
  }

  @Override
  public dev.schedlab.api.view.LoadAvgView cfsAvg() {
    return fairLoad == null ? dev.schedlab.api.view.LoadAvgView.ZERO : fairLoad.rqAvg(id);
  }

  @Override
  public long idleStampNs() {
    return idleStamp;
  }

  @Override
  public dev.schedlab.api.view.LoadAvgView rtAvg() {
    return avgRt;
  }

  @Override
  public dev.schedlab.api.view.LoadAvgView dlAvg() {
    return avgDl;
  }

  @Override
  public dev.schedlab.api.view.LoadAvgView irqAvg() {
    return avgIrq;
  }

  @Override
  public long capacityOrig() {
    return capacityOrig;
  }

  @Override
  public long capacity() {
    return capacity;
  }

  @Override
  public long freqCapacity() {
    return freqCapacity;
  }
}
