package dev.schedlab.engine.core;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.config.LockSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Kernel locks: taking, waiting for, handing off and releasing them, for the LOCK and UNLOCK ops of
 * task programs ({@link TaskExec}).
 *
 * <p>Models:
 *
 * <ul>
 *   <li>Queued spinlocks ({@code spinlock_t}, {@code raw_spinlock_t}; kernel/locking/qspinlock.c):
 *       preemption off from the first attempt to the unlock, interrupts too for {@code
 *       spin_lock_irqsave()}; an uncontended lock is one write of its lock word; waiters queue in
 *       arrival order (the MCS queue) and spin; each release hands the lock to the queue head,
 *       which sees the release one cache-line transfer later and takes the line for its own write
 *       ({@link CacheLine}: two transfers between different CPUs). A critical section that writes
 *       shared protected data (a lock item's {@code dataLines}: an LRU list head, a per-lruvec
 *       counter) fetches each such line from the CPU that wrote it last, with the lock held, so a
 *       handoff between CPUs lengthens the hold. The unlock's {@code preempt_enable()} is a
 *       preemption point.
 *   <li>Mutexes (kernel/locking/mutex.c): {@code might_sleep()} first; a contended lock whose owner
 *       is running is spun for with preemption off ({@code mutex_optimistic_spin()}), until the
 *       lock is handed over, the owner leaves its CPU or the spinner's NEED_RESCHED is set; then
 *       the waiter sleeps on the wait list (TASK_UNINTERRUPTIBLE). A release hands the lock to the
 *       first spinner, else to the first sleeper and wakes it (the MUTEX_FLAG_HANDOFF path).
 *   <li>rw_semaphores (kernel/locking/rwsem.c, v5.11+): readers take the lock while no writer holds
 *       it and nobody waits, so a waiting writer holds back new readers; writers spin on a running
 *       writer owner like mutexes; a release with no readers left hands the lock to a writer
 *       spinner, else to the first sleeper, or to every queued reader when the first is a reader
 *       ({@code rwsem_mark_wake()}, up to 256).
 *   <li>{@code rt_mutex} (kernel/locking/rtmutex.c) on every kernel, as behind a PI futex: what
 *       PREEMPT_RT makes of sleeping locks (below); a PI futex's user-space fast paths take and
 *       release it without the kernel ({@link #userLock}, {@link #userUnlock}).
 *   <li>PREEMPT_RT ({@code kernel.rt}): {@code spinlock_t} and mutexes are rtmutexes
 *       (kernel/locking/rtmutex.c, spinlock_rt.c): no preempt or IRQ disabling, adaptive spinning
 *       as above, a wait list ordered by priority, and priority inheritance ({@link PiBoost}): a
 *       blocked waiter of higher priority lends the owner its priority along the chain of owners.
 *       {@code raw_spinlock_t} spins as on any kernel.
 *   <li>Statistics per lock class as {@code /proc/lock_stat}, and the {@code
 *       lock:contention_begin/end} tracepoints.
 * </ul>
 *
 * <p>Does not model: Lock stealing by a new arrival ahead of the qspinlock queue (pending bit),
 * rwsem reader optimistic spinning on reader owners (removed in v5.11) and its writer spin on
 * reader owners, spinning on an rtmutex by a waiter that is not the top waiter, rwsems under
 * PREEMPT_RT (rwbase_rt: modelled as on other kernels), lockdep, protected data lines a path does
 * not declare (their misses are part of the hold times the workloads give), a third CPU's copy of a
 * data line ({@link CacheLine}).
 *
 * <p>Kernel reference: kernel/locking/qspinlock.c, mutex.c, rwsem.c, rtmutex.c, spinlock_rt.c;
 * include/linux/spinlock_api_smp.h; Documentation/locking/lockstat.rst;
 * include/trace/events/lock.h.
 */
final class Locks {
  /** {@code MAX_READERS_WAKEUP} in rwsem.c. */
  private static final int MAX_READERS_WAKEUP = 0x100;

  private final Kernel k;

  /** CONFIG_PREEMPT_RT. */
  final boolean rt;

  private final Map<String, LockClass> classes = new TreeMap<>();
  private final PiBoost pi;

  Locks(Kernel k, List<LockSpec> specs, boolean rt) {
    this.k = k;
    this.rt = rt;
    List<LockSpec> sorted = new ArrayList<>(specs);
    sorted.sort((a, b) -> a.name().compareTo(b.name()));
    int i = 0;
    for (LockSpec s : sorted) {
      classes.put(s.name(), new LockClass(s, i++, k.cpus));
    }
    this.pi = new PiBoost(k);
  }

  /** The declared lock {@code name}. */
  LockClass cls(String name) {
    LockClass c = classes.get(name);
    if (c == null) {
      throw new IllegalArgumentException(
          "lock " + name + " is not declared (known: " + String.join(", ", classes.keySet()) + ")");
    }
    return c;
  }

  /** Whether waiters of {@code c} may sleep (mutex, rwsem; spinlock_t under PREEMPT_RT). */
  boolean sleeping(LockClass c) {
    return !c.kind.spinning(rt);
  }

  /**
   * Whether the sleeping waiters of {@code c} are rtmutex waiters (by priority, lending it to the
   * owner): every sleeping lock under PREEMPT_RT, an {@code rt_mutex} everywhere.
   */
  private boolean rtWaiters(LockClass c) {
    return rt || c.kind == LockSpec.Kind.RT_MUTEX;
  }

  // ---------------- a PI futex's user-space fast paths ----------------

  /**
   * The compare-and-swap of the futex word from 0 to the thread's TID: it takes the lock when it is
   * free and nobody waits (no waiter has set FUTEX_WAITERS). The kernel's rt_mutex is not touched,
   * so lock_stat counts nothing.
   */
  boolean userLock(Cpu cpu, Task t, LockClass c) {
    KLock l = c.instance(cpu, t);
    if (!l.free() || !l.spinners.isEmpty() || !l.sleepers.isEmpty()) {
      return false;
    }
    l.owner = t;
    t.locks.add(l, k.now, false, false);
    return true;
  }

  /** Whether {@code t} holds a lock of class {@code c}. */
  boolean holds(Task t, LockClass c) {
    return t.locks.find(c) >= 0;
  }

  /**
   * The unlock's compare-and-swap from the TID to 0: it succeeds while no waiter set FUTEX_WAITERS;
   * otherwise the thread goes to the kernel ({@code futex_unlock_pi()}). A thread that does not
   * hold the mutex gets {@code EPERM} from glibc's owner check, in user space.
   */
  boolean userUnlock(Task t, LockClass c) {
    int i = t.locks.find(c);
    if (i < 0) {
      return true; // glibc checks the owner in user space: EPERM, nothing changes
    }
    KLock l = t.locks.held[i];
    if (!l.spinners.isEmpty() || !l.sleepers.isEmpty()) {
      return false;
    }
    t.locks.remove(i);
    l.owner = null;
    return true;
  }

  // ---------------- lock ----------------

  /** The LOCK op at {@code t.pc} starts, or restarts after the task slept on the lock. */
  void lock(Cpu cpu, Task t, Op op) {
    TaskLocks tl = t.locks;
    if (tl.waiting != null) {
      if (!tl.granted) {
        throw new IllegalStateException(
            t + " runs again waiting for " + tl.waiting + " without it");
      }
      KLock l = tl.waiting;
      endWait(cpu, t, l, op);
      // the woken waiter sets the owner, then its critical section writes the protected data
      k.exec.runLockOp(
          cpu, t, op, l.line.write(cpu, k.irqs) + l.writeData(cpu, op.lockLines, k.irqs));
      return;
    }
    LockClass c = op.lockClass;
    boolean sleeps = sleeping(c);
    if (sleeps && k.sched.wants(PreemptPoint.MIGHT_RESCHED, t)) {
      k.sched.schedule(cpu, SchedMode.PREEMPT, 0); // might_sleep() at the top; the op restarts
      return;
    }
    KLock l = c.instance(cpu, t);
    if (!sleeps) {
      tl.preemptCount++; // preempt_disable() (and local_irq_save()) before the first attempt
      if (op.lockIrqs) {
        tl.irqsOff++;
      }
    }
    boolean free =
        l.spinners.isEmpty() && l.sleepers.isEmpty() && (op.lockRead ? l.owner == null : l.free());
    if (free) {
      long cost = l.line.write(cpu, k.irqs);
      take(l, t, op.lockRead);
      acquired(cpu, t, l, op, k.now + cost);
      k.exec.runLockOp(cpu, t, op, cost + l.writeData(cpu, op.lockLines, k.irqs));
      return;
    }
    c.stat.contentions++;
    if (l.lastCpu >= 0 && l.lastCpu != cpu.id) {
      c.stat.conBounces++;
    }
    if (k.trace.enabled()) {
      k.trace.lockContentionBegin(
          k.now, cpu.id, t.traceComm(), t.tracePid(), l.addr, flags(c, op.lockRead));
    }
    tl.waiting = l;
    tl.granted = false;
    tl.waitStart = k.now;
    tl.waitRead = op.lockRead;
    tl.waitLines = op.lockLines;
    if (!sleeps || canSpin(l, t, op.lockRead)) {
      tl.spinning = true;
      tl.spinWaiting = true;
      if (sleeps) {
        tl.preemptCount++; // the optimistic spin runs with preemption off
      }
      l.spinners.add(t);
      if (sleeps && rtWaiters(c)) {
        pi.adjust(l.owner); // an rtmutex waiter is in the waiter tree while it spins
      }
      k.exec.waitOnLock(cpu, t, op);
    } else {
      sleep(cpu, t, l);
    }
  }

  /** Optimistic spinning: a writer or mutex waiter spins while the owner runs on a CPU. */
  private boolean canSpin(KLock l, Task t, boolean read) {
    Task o = l.owner;
    return !read && o != null && running(o) && !t.needResched;
  }

  private boolean running(Task o) {
    return o.onCpu && k.cpus[o.cpu].curr == o;
  }

  /** The waiter blocks on the wait list; the task switch follows. */
  private void sleep(Cpu cpu, Task t, KLock l) {
    t.locks.spinning = false;
    boolean byPrio = rtWaiters(l.cls);
    if (byPrio) {
      insertByPrio(l, t);
    } else {
      l.sleepers.add(t);
    }
    // futex_lock_pi() waits on its rt_mutex TASK_INTERRUPTIBLE; kernel locks uninterruptibly
    t.state =
        l.cls.kind == LockSpec.Kind.RT_MUTEX ? TaskState.INTERRUPTIBLE : TaskState.UNINTERRUPTIBLE;
    if (byPrio) {
      pi.adjust(l.owner);
    }
    k.sched.schedule(cpu, SchedMode.NONE, 0);
  }

  /** rt_mutex_waiter_less(): higher priority first, FIFO among equals. */
  private static void insertByPrio(KLock l, Task t) {
    if (l.sleepers.isEmpty() || l.sleepers.peekLast().prio() <= t.prio()) {
      l.sleepers.addLast(t);
      return;
    }
    List<Task> all = new ArrayList<>(l.sleepers);
    l.sleepers.clear();
    boolean placed = false;
    for (Task w : all) {
      if (!placed && t.prio() < w.prio()) {
        l.sleepers.add(t);
        placed = true;
      }
      l.sleepers.add(w);
    }
    if (!placed) {
      l.sleepers.add(t);
    }
  }

  /**
   * The spin of the LOCK op ended (handoff seen, or an abort). Returns whether the lock is held;
   * false when the waiter went to sleep instead.
   */
  boolean spinEnded(Cpu cpu, Task t, Op op) {
    TaskLocks tl = t.locks;
    KLock l = Objects.requireNonNull(tl.waiting); // the spin was for it
    l.spinners.remove(t);
    boolean sleeps = sleeping(l.cls);
    if (sleeps) {
      tl.preemptCount--; // out of the spin loop
    }
    if (tl.granted) {
      endWait(cpu, t, l, op);
      return true;
    }
    sleep(cpu, t, l); // owner off its CPU, or need_resched(): schedule_preempt_disabled()
    return false;
  }

  private void endWait(Cpu cpu, Task t, KLock l, Op op) {
    TaskLocks tl = t.locks;
    // the data-line transfers after the handoff are held time, not wait
    long heldFrom = Math.max(tl.waitStart, k.now - tl.grantData);
    l.cls.stat.waited(heldFrom - tl.waitStart);
    if (k.trace.enabled()) {
      k.trace.lockContentionEnd(k.now, cpu.id, t.traceComm(), t.tracePid(), l.addr);
    }
    tl.waiting = null;
    tl.spinning = false;
    tl.granted = false;
    tl.grantData = 0;
    acquired(cpu, t, l, op, heldFrom);
  }

  private static void take(KLock l, Task t, boolean read) {
    if (read) {
      l.readers++;
    } else {
      l.owner = t;
    }
  }

  private void acquired(Cpu cpu, Task t, KLock l, Op op, long at) {
    LockStat s = l.cls.stat;
    s.acquisitions++;
    if (l.lastCpu >= 0 && l.lastCpu != cpu.id) {
      s.acqBounces++;
    }
    l.lastCpu = cpu.id;
    t.locks.add(l, at, op.lockRead, op.lockIrqs && !sleeping(l.cls));
  }

  // ---------------- unlock ----------------

  /**
   * The UNLOCK op starts: release, hand off, wake. Interrupts come back on here (the {@code
   * _irqrestore}); preemption at the op's end ({@link #unlockDone}).
   */
  void unlock(Cpu cpu, Task t, Op op) {
    TaskLocks tl = t.locks;
    int i = tl.find(op.lockClass);
    if (i < 0) {
      throw new IllegalStateException(
          t + " unlocks " + op.lockClass.name + ", which it does not hold");
    }
    KLock l = tl.held[i];
    boolean read = tl.heldRead[i];
    if (tl.heldIrqs[i]) {
      tl.irqsOff--;
    }
    l.cls.stat.held(k.now - tl.heldSince[i]);
    tl.remove(i);
    l.line.wroteBy(cpu); // the releasing store is posted: the releaser does not wait for it
    if (read) {
      l.readers--;
    } else {
      l.owner = null;
    }
    k.pathCost = 0;
    handOff(l);
    if (rtWaiters(l.cls) && sleeping(l.cls)) {
      pi.adjust(t); // the waiters of this lock no longer lend their priority to t
    }
    k.exec.runLockOp(cpu, t, op, k.pathCost);
  }

  /**
   * The UNLOCK op's time is over: the spinlock's preempt_enable(). Returns whether t is
   * preemptible.
   */
  boolean unlockDone(Task t, Op op) {
    if (!sleeping(op.lockClass)) {
      t.locks.preemptCount--;
    }
    return t.locks.preemptCount == 0;
  }

  /** A released lock goes to the next waiter: a spinner first, else the wait list. */
  private void handOff(KLock l) {
    if (!l.free()) {
      return; // readers still hold it
    }
    Task s = l.spinners.poll();
    if (s != null) {
      take(l, s, false);
      grant(l, s);
      return;
    }
    Task w = l.sleepers.peek();
    if (w == null) {
      return;
    }
    if (w.locks.waitRead) {
      int n = 0;
      for (Iterator<Task> it = l.sleepers.iterator(); it.hasNext() && n < MAX_READERS_WAKEUP; ) {
        Task r = it.next();
        if (r.locks.waitRead) {
          it.remove();
          l.readers++;
          r.locks.granted = true;
          k.sched.wakeUp(r, 0);
          n++;
        }
      }
      return;
    }
    l.sleepers.poll();
    l.owner = w;
    w.locks.granted = true;
    if (rtWaiters(l.cls)) {
      pi.adjust(w); // the new owner inherits from the waiters left behind it
    }
    k.sched.wakeUp(w, 0);
  }

  /**
   * {@code s}, spinning, is handed the lock: it sees the release one transfer later and writes the
   * lock word, another transfer; then its critical section fetches the protected data lines the
   * previous holder wrote (these count as held time).
   */
  private void grant(KLock l, Task s) {
    TaskLocks tl = s.locks;
    tl.granted = true;
    Cpu wc = k.cpus[s.cpu];
    long seen = k.now + l.line.read(wc, k.irqs) + l.line.write(wc, k.irqs);
    tl.grantData = l.writeData(wc, tl.waitLines, k.irqs);
    seen += tl.grantData;
    if (tl.spinWaiting) {
      tl.spinWaiting = false;
      k.exec.lockWaitEnds(s, seen);
    } // else its spin is already ending (an abort): it finds the lock granted then
  }

  // ---------------- spinners watching owners ----------------

  /**
   * {@code prev} left its CPU: optimistic spinners on its sleeping locks stop one transfer later.
   */
  void ownerLeftCpu(Cpu cpu, Task prev) {
    TaskLocks tl = prev.locks;
    for (int i = 0; i < tl.nrHeld; i++) {
      KLock l = tl.held[i];
      if (!sleeping(l.cls) || l.owner != prev) {
        continue;
      }
      for (Task s : l.spinners) {
        if (s.locks.spinWaiting) {
          s.locks.spinWaiting = false;
          k.exec.lockWaitEnds(s, k.now + k.irqs.cacheline(cpu, k.cpus[s.cpu]));
        }
      }
    }
  }

  /**
   * An interrupt returns to {@code t} spinning on a sleeping lock with NEED_RESCHED set: the spin
   * loop's {@code need_resched()} check ends the spin now. Returns whether it did.
   */
  boolean spinnerSeesResched(Task t) {
    TaskLocks tl = t.locks; // read only when NEED_RESCHED is set: mostly it is not
    if (t.needResched && tl.spinWaiting && sleeping(Objects.requireNonNull(tl.waiting).cls)) {
      tl.spinWaiting = false;
      return true;
    }
    return false;
  }

  // ---------------- output ----------------

  /** {@code /proc/lock_stat} by lock class, for the run's metrics. */
  Map<String, Object> lockStat() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (LockClass c : classes.values()) {
      m.put(c.name, c.stat.json());
    }
    return m;
  }

  private String flags(LockClass c, boolean read) {
    // include/trace/events/lock.h show_contention_flags()
    if (sleeping(c) && rtWaiters(c) && c.kind != LockSpec.Kind.RWSEM) {
      return "RT";
    }
    return switch (c.kind) {
      case MUTEX -> "MUTEX";
      case RWSEM -> read ? "READ" : "WRITE";
      default -> "SPIN";
    };
  }
}
