package dev.schedlab.engine.core;

import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.sim.Event;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Tree RCU: grace periods, each CPU's quiescent states and its callbacks (docs/model.md, "RCU").
 *
 * <p>Models: {@code call_rcu()} queues a callback on its CPU without a grace period; the tick's
 * {@code rcu_sched_clock_irq()} notes a quiescent state for a CPU not in the idle task ({@code
 * rcu_qs()}, PREEMPT_RCU: the idle task runs with preemption off), as does every {@code
 * __schedule()} ({@code rcu_note_context_switch()}), and raises RCU_SOFTIRQ when {@code
 * rcu_pending()} finds work: a noted quiescent state the grace period waits for, callbacks ready to
 * invoke, callbacks and no grace period, a grace period begun or ended since the CPU last looked.
 * RCU_SOFTIRQ ({@code rcu_core()}) notes grace-period changes and moves the callbacks whose grace
 * period ended to the done list ({@code note_gp_changes()}), reports the quiescent state ({@code
 * rcu_report_qs_rdp()}), assigns waiting callbacks the next grace period and requests it ({@code
 * rcu_accelerate_cbs()}, {@code rcu_start_this_gp()}), and invokes the done callbacks up to the
 * batch limit of {@code rcu_do_batch()}, raising itself again for the rest. The grace-period
 * kthread starts a grace period when woken for one and ends it once every CPU has reported; it runs
 * on the CPU whose RCU_SOFTIRQ woke it, notes each start and end for that CPU, and its switch away
 * is that CPU's quiescent state. Its force-quiescent-state scans ({@code rcu_gp_fqs()}, {@code
 * schedule_timeout()} of {@code jiffies_till_first_fqs}, then {@code jiffies_till_next_fqs}
 * jiffies, each a timer-wheel timer that fires a jiffy late) report the CPUs in an extended
 * quiescent state: in an idle state, or a nohz_full CPU whose tick is deferred. A CPU with
 * callbacks keeps its tick in idle ({@code rcu_needs_cpu()}, read by {@link IdleLoop}). Callbacks
 * of an offloaded (rcu_nocbs) CPU request their grace period at once and go to the {@code rcuo}
 * kthread when it ends; that CPU needs no tick for them.
 *
 * <p>Does not model: the grace-period kthread as a task (it runs at once and at no CPU's cost; its
 * timer's expiries are in the measured background rate), a scan's check whether a CPU passed
 * through an extended quiescent state since the first scan (only its state at the scan counts), the
 * rcu_node tree (one node), expedited grace periods, RCU_LAZY, the {@code qhimark} / {@code
 * qlowmark} switch of {@code blimit} (a CPU with over 10 000 callbacks queued), read-side critical
 * sections and spinlocks that hold off a tick's quiescent state, {@code rcu_urgent_qs} and the
 * nohz_full details of {@code rcu_pending()}.
 *
 * <p>Kernel reference: {@code kernel/rcu/tree.c} ({@code call_rcu}, {@code rcu_sched_clock_irq},
 * {@code rcu_pending}, {@code rcu_core}, {@code note_gp_changes}, {@code rcu_report_qs_rdp}, {@code
 * rcu_accelerate_cbs}, {@code rcu_start_this_gp}, {@code rcu_gp_fqs_loop}, {@code rcu_gp_cleanup},
 * {@code rcu_needs_cpu}, {@code rcu_init_geometry}, {@code rcu_do_batch}), {@code
 * kernel/rcu/tree_plugin.h} ({@code rcu_flavor_sched_clock_irq}, {@code rcu_note_context_switch}),
 * {@code kernel/rcu/rcu.h} ({@code rcu_seq_snap}).
 */
final class Rcu {
  /** {@code WAKE_FROM_GP_CPU_THRESHOLD}, kernel/rcu/tree.c. */
  private static final int WAKE_FROM_GP_CPU_THRESHOLD = 16;

  /** {@code RCU_JIFFIES_FQS_DIV}, kernel/rcu/tree.h. */
  private static final int FQS_DIV = 256;

  private final Kernel k;

  /** {@code rcu_state.gp_seq}: grace periods ended x 2, plus 1 while one is in progress. */
  private long gpSeq;

  /** {@code gp_seq_needed}: the highest {@link #gpSeq} a callback waits for. */
  private long gpSeqNeeded;

  /** {@code rnp->qsmask}: the CPUs the grace period in progress still waits for. */
  private final boolean[] qsMask;

  private int qsLeft;

  /**
   * The CPU the grace-period kthread last ran on, -1 before its first wakeup: it runs on the CPU
   * whose RCU_SOFTIRQ woke it (a request, the last report), and its FQS timer fires there.
   */
  private int gpKthreadCpu = -1;

  /** The grace-period kthread's next run: its wakeup, or its FQS timer. */
  private final Event kthreadEv;

  private final long firstFqsJiffies;
  private final long nextFqsJiffies;

  /** Per CPU, {@code rdp->gp_seq}: the grace-period state the CPU last noted. */
  private final long[] cpuGpSeq;

  /** Per CPU, {@code cpu_no_qs.b.norm}: no quiescent state since the grace period was noted. */
  private final boolean[] noQs;

  /** Per CPU, {@code core_needs_qs}: the grace period waits for this CPU's report. */
  private final boolean[] coreNeedsQs;

  /** Per CPU: RCU_SOFTIRQ raised. */
  private final boolean[] raised;

  /**
   * Per CPU: callbacks waiting for a grace period, in queuing order ({@link WorkItem#rcuGpSeq} 0
   * until one is assigned); the done list is {@link Cpu#rcuPending}.
   */
  private final ArrayDeque<WorkItem>[] waiting;

  /**
   * {@code synchronize_rcu()} callers woken by the grace-period kthread's cleanup ({@code
   * rcu_sr_normal_add_req()}), each with the {@link #gpSeq} it waits for.
   */
  private final ArrayDeque<WorkItem> syncWaiters = new ArrayDeque<>();

  /** {@code rcu_normal_wake_from_gp}. */
  private final boolean wakeFromGp;

  /** Callbacks of offloaded CPUs, waiting for their grace period. */
  private final ArrayDeque<WorkItem> offloadedWaiting = new ArrayDeque<>();

  private final boolean[] offloaded;
  private final long coreNs;
  private final long cbOverheadNs;
  private final long blimit;
  private final int divisor;
  private final long reschedNs;

  /** Registered at the first grace period, so a run without RCU callbacks shows no RCU metric. */
  private @Nullable MetricCounter gracePeriods;

  private final MetricCounter callbacks;

  @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array of per-CPU lists
  Rcu(Kernel k, boolean[] offloaded) {
    this.k = k;
    int n = k.cpus.length;
    this.offloaded = offloaded;
    qsMask = new boolean[n];
    cpuGpSeq = new long[n];
    noQs = new boolean[n];
    coreNeedsQs = new boolean[n];
    raised = new boolean[n];
    waiting = new ArrayDeque[n];
    for (int c = 0; c < n; c++) {
      waiting[c] = new ArrayDeque<>();
    }
    // rcu_init_geometry(): RCU_JIFFIES_TILL_FORCE_QS + nr_cpu_ids / RCU_JIFFIES_FQS_DIV
    long d = 1 + (k.hz > 250 ? 1 : 0) + (k.hz > 500 ? 1 : 0) + (long) n / FQS_DIV;
    long first = k.costs.p(Param.RCU_FIRST_FQS);
    long next = k.costs.p(Param.RCU_NEXT_FQS);
    firstFqsJiffies = first < 0 ? d : first;
    nextFqsJiffies = next < 0 ? d : Math.max(next, 1);
    kthreadEv = new Event(EventLoop.EV_RCU_GP_KTHREAD, -1, this);
    coreNs = k.costs.p(Param.RCU_CORE);
    cbOverheadNs = k.costs.p(Param.RCU_CB_OVERHEAD);
    blimit = Math.max(1, k.costs.p(Param.RCU_BLIMIT));
    // rcu_do_batch(): the divisor is clamped to [0, 62], a negative one read as 7
    long div = k.costs.p(Param.RCU_DIVISOR);
    divisor = div < 0 ? 7 : (int) Math.min(div, Long.SIZE - 2);
    long rrn = k.costs.p(Param.RCU_RESCHED_NS);
    reschedNs = Math.max(1_000_000, Math.min(1_000_000_000, rrn));
    callbacks = k.metrics.counter("deferred.rcu_callbacks");
    long wake = k.costs.p(Param.RCU_NORMAL_WAKE_FROM_GP);
    wakeFromGp = wake < 0 ? n <= WAKE_FROM_GP_CPU_THRESHOLD : wake > 0;
  }

  private boolean gpInProgress() {
    return (gpSeq & 1) != 0;
  }

  /** {@code rcu_seq_snap()}: the {@link #gpSeq} at which a grace period started from now ended. */
  private long snap() {
    return (gpSeq + 3) & ~1L;
  }

  /** {@code call_rcu()} on {@code cpu}. */
  void callRcu(Cpu cpu, WorkItem w) {
    if (offloaded[cpu.id]) {
      w.rcuGpSeq = snap(); // the rcuog kthread requests the grace period
      offloadedWaiting.add(w);
      requestGp(w.rcuGpSeq, -1); // rcuog runs on a housekeeping CPU, not tracked
    } else {
      waiting[cpu.id].add(w);
    }
  }

  /**
   * {@code synchronize_rcu()} on {@code cpu}, {@code w} run when a full grace period has passed.
   * With {@code rcu_normal_wake_from_gp} the caller asks for the grace period at once ({@code
   * start_poll_synchronize_rcu()}) and the kthread's cleanup runs {@code w}; without, it is a
   * {@code call_rcu_hurry()} callback.
   */
  void synchronize(Cpu cpu, WorkItem w) {
    if (!wakeFromGp) {
      callRcu(cpu, w);
      return;
    }
    w.rcuGpSeq = snap();
    syncWaiters.add(w);
    requestGp(w.rcuGpSeq, cpu.id);
  }

  /** {@code rcu_needs_cpu()}: {@code cpu} has callbacks queued and they are not offloaded. */
  boolean needsCpu(Cpu cpu) {
    return !offloaded[cpu.id] && !(waiting[cpu.id].isEmpty() && cpu.rcuPending.isEmpty());
  }

  /** {@code rcu_note_context_switch()} from {@code __schedule()}: a quiescent state. */
  void noteContextSwitch(Cpu cpu) {
    noQs[cpu.id] = false;
  }

  /** {@code rcu_sched_clock_irq()} in the tick on {@code cpu}. */
  void schedClockIrq(Cpu cpu) {
    if (!cpu.curr.idleTask) {
      noQs[cpu.id] = false; // rcu_flavor_sched_clock_irq(): rcu_qs()
    }
    if (pending(cpu)) {
      invokeCore(cpu);
    }
  }

  /** {@code rcu_pending()}. */
  private boolean pending(Cpu cpu) {
    int c = cpu.id;
    boolean gp = gpInProgress();
    if (coreNeedsQs[c] && !noQs[c] && gp) {
      return true; // a quiescent state to report
    }
    if (!cpu.rcuPending.isEmpty()) {
      return true; // callbacks ready to invoke
    }
    if (!gp && hasUnassigned(c)) {
      return true; // callbacks and no grace period for them
    }
    return cpuGpSeq[c] != gpSeq; // a grace period began or ended unnoted
  }

  private boolean hasUnassigned(int c) {
    WorkItem last = waiting[c].peekLast();
    return last != null && last.rcuGpSeq == 0;
  }

  /** Whether RCU_SOFTIRQ was raised on {@code cpu}; clears it. */
  boolean takeSoftirq(Cpu cpu) {
    boolean r = raised[cpu.id];
    raised[cpu.id] = false;
    return r;
  }

  /** RCU_SOFTIRQ, {@code rcu_core()}; its cost goes to {@link Kernel#pathCost}. */
  void core(Cpu cpu) {
    int c = cpu.id;
    k.pathCost += coreNs;
    noteGpChanges(cpu); // rcu_check_quiescent_state()
    if (coreNeedsQs[c] && !noQs[c]) {
      reportQs(cpu);
    }
    if (!gpInProgress() && hasUnassigned(c)) {
      accelerate(c);
    }
    if (!cpu.rcuPending.isEmpty()) {
      doBatch(cpu);
    }
  }

  /**
   * {@code rcu_do_batch()} in softirq context: invokes the done callbacks up to the batch limit
   * {@code bl = max(blimit, done >> rcu_divisor)}, stopping there when {@code need_resched()} or
   * the CPU is not idle; a limit over 100 also stops it after {@code rcu_resched_ns}. Callbacks
   * left raise RCU_SOFTIRQ again ({@code invoke_rcu_core()}).
   */
  private void doBatch(Cpu cpu) {
    int c = cpu.id;
    // the done callbacks (rcu_segcblist_get_seglen(RCU_DONE_TAIL), commit 253cbbff6214)
    long bl = Math.max(blimit, (long) cpu.rcuPending.size() >> divisor);
    long tlimit = bl > 100 ? k.pathCost + reschedNs : Long.MAX_VALUE;
    long count = 0;
    WorkItem w;
    while ((w = cpu.rcuPending.poll()) != null) {
      long cost = cbOverheadNs + w.costNs;
      k.pathCost += cost;
      k.deferred.account(c, cost);
      callbacks.value++;
      w.fn.run(c);
      count++;
      Task curr = cpu.curr;
      if (count >= bl && (curr.needResched || !curr.idleTask)) {
        break;
      }
      if ((count & 31) == 0 && k.pathCost >= tlimit) {
        break; // rcu_do_batch_check_time()
      }
    }
    if (!cpu.rcuPending.isEmpty()) {
      invokeCore(cpu);
    }
  }

  /** {@code invoke_rcu_core()}: raises RCU_SOFTIRQ on {@code cpu}. */
  void invokeCore(Cpu cpu) {
    raised[cpu.id] = true;
  }

  /** Whether RCU_SOFTIRQ is raised on {@code cpu}. */
  boolean raised(Cpu cpu) {
    return raised[cpu.id];
  }

  /** {@code note_gp_changes()}: advance the callbacks, note a new grace period. */
  private void noteGpChanges(Cpu cpu) {
    int c = cpu.id;
    if (cpuGpSeq[c] == gpSeq) {
      return;
    }
    ArrayDeque<WorkItem> q = waiting[c];
    WorkItem w;
    while ((w = q.peek()) != null && w.rcuGpSeq != 0 && gpSeq >= w.rcuGpSeq) {
      cpu.rcuPending.add(q.poll()); // rcu_advance_cbs()
    }
    accelerate(c);
    if (gpInProgress()) {
      boolean needQs = qsMask[c];
      noQs[c] = needQs;
      coreNeedsQs[c] = needQs;
    }
    cpuGpSeq[c] = gpSeq;
  }

  /** {@code rcu_report_qs_rdp()}. */
  private void reportQs(Cpu cpu) {
    int c = cpu.id;
    if (cpuGpSeq[c] != gpSeq || !gpInProgress()) {
      noQs[c] = true; // the quiescent state was of a grace period that has ended
      return;
    }
    coreNeedsQs[c] = false;
    if (qsMask[c]) {
      accelerate(c);
      clearQs(c);
    }
  }

  /** {@code rcu_accelerate_cbs()}: the callbacks without a grace period wait for the next one. */
  private void accelerate(int c) {
    long s = snap();
    boolean any = false;
    for (var it = waiting[c].descendingIterator(); it.hasNext(); ) {
      WorkItem w = it.next();
      if (w.rcuGpSeq != 0) {
        break;
      }
      w.rcuGpSeq = s;
      any = true;
    }
    if (any) {
      requestGp(s, c);
    }
  }

  /**
   * {@code rcu_start_this_gp()}: the grace period ending at {@code seq} is needed, asked from
   * {@code waker}'s CPU (-1: none the model tracks); with none in progress the grace-period kthread
   * is woken to start it.
   */
  private void requestGp(long seq, int waker) {
    if (seq <= gpSeqNeeded) {
      return;
    }
    gpSeqNeeded = seq;
    if (!gpInProgress()) {
      wakeGpKthread(waker);
    }
  }

  /**
   * {@code rcu_gp_kthread_wake()}: the kthread runs on {@code waker}'s CPU once the waker's softirq
   * is done; it stays where it was for -1 or an isolated (offloaded) waker, whose CPU its
   * housekeeping affinity excludes.
   */
  private void wakeGpKthread(int waker) {
    if (waker >= 0 && !offloaded[waker]) {
      gpKthreadCpu = waker;
    }
    k.queue.schedule(kthreadEv, k.now);
  }

  /**
   * A run of the grace-period kthread ({@code rcu_gp_kthread()}), woken or at its FQS timer. In a
   * grace period it reports the CPUs in an extended quiescent state ({@code rcu_gp_fqs()}; woken by
   * the last report, none is left), and once none is left it cleans up ({@code rcu_gp_cleanup()})
   * and starts the next grace period if one is needed ({@code rcu_gp_init()}); otherwise it waits
   * again.
   */
  void kthread() {
    int cpu = k.thisCpu;
    long path = k.pathCost;
    int kc = gpKthreadCpu;
    if (kc >= 0) {
      k.thisCpu = kc; // it runs there, at no CPU's cost: its wakeups are that CPU's
    }
    boolean woke;
    try {
      woke = run();
    } finally {
      k.thisCpu = cpu;
      k.pathCost = path;
    }
    if (woke && kc >= 0 && k.cpus[kc].phase == Cpu.P_IDLE_STATE) {
      // Its timer's interrupt brought that CPU out of idle; a task it woke there runs after it.
      k.thisCpu = kc;
      k.irqs.raise(k.cpus[kc], Cpu.IRQ_TIMER);
    }
  }

  /** {@link #kthread}'s work; whether it woke a {@code synchronize_rcu()} caller. */
  private boolean run() {
    boolean woke = false;
    if (gpInProgress()) {
      for (int c = 0; c < qsMask.length && qsLeft > 0; c++) {
        Cpu cpu = k.cpus[c];
        if (qsMask[c]
            && (cpu.phase == Cpu.P_IDLE_STATE || (cpu.fullTickStopped && !cpu.curr.idleTask))) {
          qsMask[c] = false;
          qsLeft--;
        }
      }
      if (qsLeft > 0) {
        k.queue.schedule(kthreadEv, fqsTimer(nextFqsJiffies));
        return false;
      }
      woke = endGp();
    }
    if (gpSeqNeeded > gpSeq) {
      startGp();
    }
    return woke;
  }

  /**
   * When {@code schedule_timeout(j)} wakes the kthread: a timer-wheel timer expires at the tick one
   * jiffy after {@code jiffies + j}, since {@code calc_index()} rounds a level-0 expiry up by one
   * granule so that a timer armed late in a jiffy never fires early (kernel/time/timer.c).
   */
  private long fqsTimer(long j) {
    return (k.jiffies() + j + 1) * k.tickNs;
  }

  /**
   * {@code rcu_gp_init()}: a new grace period that waits for every CPU. The kthread notes it for
   * its own CPU ({@code __note_gp_changes()}), and its switch away from that CPU is the CPU's
   * quiescent state ({@code rcu_note_context_switch()}).
   */
  private void startGp() {
    gpSeq++;
    MetricCounter gps = gracePeriods;
    if (gps == null) {
      gps = k.metrics.counter("rcu.grace_periods");
      gracePeriods = gps;
    }
    gps.value++;
    Arrays.fill(qsMask, true);
    qsLeft = qsMask.length;
    int kc = gpKthreadCpu;
    if (kc >= 0) {
      noteGpChanges(k.cpus[kc]);
      noQs[kc] = false;
    }
    k.queue.schedule(kthreadEv, fqsTimer(firstFqsJiffies));
  }

  /**
   * {@code rcu_report_qs_rnp()} of {@code c} from its RCU_SOFTIRQ: the last report wakes the
   * kthread on {@code c}; the grace period is in progress until the kthread's cleanup.
   */
  private void clearQs(int c) {
    qsMask[c] = false;
    if (--qsLeft == 0) {
      wakeGpKthread(c);
    }
  }

  /**
   * {@code rcu_gp_cleanup()}: the grace period ends, the offloaded callbacks it covered go to their
   * kthread, the {@code synchronize_rcu()} callers it covered are woken, and the kthread notes the
   * end for its own CPU (which may ask for the next one).
   */
  private boolean endGp() {
    gpSeq++;
    WorkItem w;
    while ((w = offloadedWaiting.peek()) != null && gpSeq >= w.rcuGpSeq) {
      offloadedWaiting.poll();
      callbacks.value++;
      k.deferred.offloadedReady(w); // rcu_nocb_gp_cleanup(): the rcuo kthread invokes it
    }
    int kc = gpKthreadCpu;
    boolean woke = false;
    while ((w = syncWaiters.peek()) != null && gpSeq >= w.rcuGpSeq) {
      syncWaiters.poll();
      w.fn.run(Math.max(kc, 0)); // rcu_sr_normal_gp_cleanup(): complete()
      woke = true;
    }
    if (kc >= 0) {
      noteGpChanges(k.cpus[kc]);
    }
    return woke;
  }
}
