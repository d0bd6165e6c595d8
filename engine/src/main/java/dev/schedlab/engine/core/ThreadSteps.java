package dev.schedlab.engine.core;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;
import java.util.List;

/**
 * Compiles the thread-level steps (wall-clock compute, yield, affinity, absolute and periodic
 * timers, glibc mutexes, condition variables, barriers, socket send buffers, fork, clock reads,
 * slice) into {@link Op}s run by {@link ThreadOps}. Syscall-shaped steps get entry and exit to user
 * around their op.
 */
final class ThreadSteps {
  private ThreadSteps() {}

  /** Emits {@code s}; false when it is not one of these steps. */
  static boolean emit(ProgramCompiler c, StepSpec s, List<Op> out) {
    if (s instanceof StepSpec.UserWall u) {
      Op op = new Op(Op.USER_WALL);
      op.dist = u.duration();
      out.add(op);
    } else if (s instanceof StepSpec.Yield) {
      syscall(out, new Op(Op.YIELD));
    } else if (s instanceof StepSpec.Affinity a) {
      affinity(c, a, out);
    } else if (s instanceof StepSpec.SleepAbs sa) {
      Op op = new Op(Op.SLEEP_ABS);
      op.atNs = sa.atNs();
      op.stamp = c.base(sa.from());
      syscall(out, op);
    } else if (s instanceof StepSpec.Timer tm) {
      Op arm = new Op(Op.TIMER_ARM);
      arm.timer = c.timer(tm.ref(), tm.perTask());
      arm.periodNs = tm.periodNs();
      arm.relative = tm.relative();
      arm.firstNs = tm.firstNs();
      arm.stamp = c.base(tm.from());
      arm.times = c.times(tm.slackKey());
      arm.times2 = c.times(tm.wakeKey());
      out.add(arm);
      int at = out.size() - 1;
      syscall(out, new Op(Op.TIMER_SLEEP));
      arm.jump = out.size() - at; // a missed expiry skips the sleep
    } else if (s instanceof StepSpec.Signal sig) {
      Op op = new Op(Op.SIGNAL);
      op.waitQueue = c.waitQueue(sig.waitQueue());
      op.flag = sig.all();
      syscall(out, op);
    } else if (s instanceof StepSpec.Charge || s instanceof StepSpec.Uncharge) {
      syscall(out, sendBuffer(c, s));
    } else if (s instanceof StepSpec.CondWait cw) {
      condWait(c, cw, out);
    } else if (s instanceof StepSpec.MutexLock ml) {
      mutexLock(c.waitQueue(ml.mutex()), out);
    } else if (s instanceof StepSpec.MutexUnlock mu) {
      mutexUnlock(c.waitQueue(mu.mutex()), out);
    } else if (s instanceof StepSpec.PiMutexLock pl) {
      piLock(c, c.lockClass(pl.lock()), out);
    } else if (s instanceof StepSpec.PiMutexUnlock pu) {
      piUnlock(c.lockClass(pu.lock()), out);
    } else if (s instanceof StepSpec.Cgroup g) {
      cgroupWrite(c, g, out);
    } else if (s instanceof StepSpec.Barrier b && b.mutex() != null) {
      mutexBarrier(c, b, b.mutex(), out);
    } else if (s instanceof StepSpec.Barrier b) {
      Op op = new Op(Op.BARRIER);
      op.barrier = c.barrier(b.name(), b.users());
      syscall(out, op);
    } else if (s instanceof StepSpec.Fork f) {
      Op op = new Op(Op.FORK);
      op.template = f.template();
      op.namePrefix = f.namePrefix();
      op.count = f.firstIndex();
      op.flag = f.thread();
      out.add(op);
    } else if (s instanceof StepSpec.Clock st) {
      Op op = new Op(Op.CLOCK);
      op.times = c.times(st.key());
      out.add(op);
    } else if (s instanceof StepSpec.Slice sl) {
      Op op = new Op(Op.SLICE);
      op.costNs = sl.ns();
      syscall(out, op);
    } else {
      return false;
    }
    return true;
  }

  /** A {@link StepSpec.Charge} or {@link StepSpec.Uncharge}, alone or as a syscall's part. */
  static Op sendBuffer(ProgramCompiler c, StepSpec s) {
    if (s instanceof StepSpec.Charge ch) {
      Op op = new Op(Op.CHARGE);
      op.waitQueue = c.waitQueue(ch.buffer());
      op.bytes = ch.bytes();
      op.limit = ch.limit();
      return op;
    }
    StepSpec.Uncharge u = (StepSpec.Uncharge) s;
    Op op = new Op(Op.UNCHARGE);
    op.waitQueue = c.waitQueue(u.buffer());
    op.bytes = u.bytes();
    op.limit = u.wakeAt();
    op.flag = u.sync();
    return op;
  }

  /** A {@link StepSpec.Message}: a syscall's part. */
  static Op message(ProgramCompiler c, StepSpec.Message m) {
    Op op = new Op(Op.MESSAGE);
    op.waitQueue = c.waitQueue(m.queue());
    op.flag = m.write();
    op.count = m.lines();
    op.sharedLines = m.sharedLines();
    op.preemptible = false; // under the receive queue's spinlock
    return op;
  }

  /**
   * {@code sched_setaffinity(0, cpus)}: the new mask, the stopper queued when the CPU left it, then
   * {@code task_rq_unlock()}'s {@code preempt_enable()} (where the stopper's wakeup preempts a
   * preemptible call) and {@code wait_for_completion()}.
   */
  private static void affinity(ProgramCompiler c, StepSpec.Affinity a, List<Op> out) {
    Op op = new Op(Op.AFFINITY);
    op.cpus = c.cpuMask(a.cpus());
    out.add(new Op(Op.SYSCALL_ENTER));
    out.add(op);
    Op unlock = new Op(Op.KSEG);
    unlock.dist = Dist.fixed(0);
    unlock.preemptible = false;
    out.add(unlock);
    out.add(new Op(Op.AFFINITY_WAIT));
    out.add(new Op(Op.SYSCALL_EXIT));
  }

  /**
   * The task's TID written to a group's tasks file: the open, write and close, then {@code
   * cgroup_attach_lock()} and the move under it.
   */
  private static void cgroupWrite(ProgramCompiler c, StepSpec.Cgroup g, List<Op> out) {
    out.add(new Op(Op.SYSCALL_ENTER));
    Op write = new Op(Op.KSEG);
    write.dist = Dist.fixed(c.cost(Param.CGROUP_WRITE));
    out.add(write);
    out.add(new Op(Op.CGROUP_LOCK));
    Op move = new Op(Op.CGROUP);
    move.count = c.taskGroup(g.group());
    out.add(move);
    out.add(new Op(Op.SYSCALL_EXIT));
  }

  /**
   * {@code pthread_cond_wait()}: queue on the condition (a PI mutex the thread does not hold jumps
   * past the rest: {@code EPERM}), unlock, {@code futex_wait()}, lock again.
   */
  private static void condWait(ProgramCompiler c, StepSpec.CondWait cw, List<Op> out) {
    condWait(c, c.waitQueue(cw.cond()), cw.mutex(), cw.pi(), out);
  }

  private static void condWait(
      ProgramCompiler c, WaitQueue cond, String mutex, boolean pi, List<Op> out) {
    Op queue = new Op(Op.COND_QUEUE);
    queue.waitQueue = cond;
    out.add(queue);
    int at = out.size() - 1;
    if (pi) {
      queue.lockClass = c.lockClass(mutex);
    }
    unlock(c, mutex, pi, out);
    Op sleep = new Op(Op.COND_SLEEP);
    sleep.waitQueue = cond;
    syscall(out, sleep);
    lock(c, mutex, pi, out);
    queue.jump = out.size() - at;
  }

  /**
   * rt-app's barrier event: lock; if the others all wait, broadcast, else count in, wait on the
   * condition (which retakes the mutex) and count out; unlock.
   */
  private static void mutexBarrier(
      ProgramCompiler c, StepSpec.Barrier b, String mutex, List<Op> out) {
    BarrierState state = c.barrier(b.name(), b.users());
    lock(c, mutex, b.pi(), out);
    Op arrive = new Op(Op.BARRIER_ARRIVE);
    arrive.barrier = state;
    out.add(arrive);
    int arriveAt = out.size() - 1;
    Op broadcast = new Op(Op.SIGNAL);
    broadcast.waitQueue = state.sleepers;
    broadcast.flag = true;
    syscall(out, broadcast);
    Op toUnlock = new Op(Op.JUMP);
    out.add(toUnlock);
    int jumpAt = out.size() - 1;
    arrive.jump = out.size() - arriveAt;
    condWait(c, state.sleepers, mutex, b.pi(), out);
    Op leave = new Op(Op.BARRIER_LEAVE);
    leave.barrier = state;
    out.add(leave);
    toUnlock.jump = out.size() - jumpAt;
    unlock(c, mutex, b.pi(), out);
  }

  private static void lock(ProgramCompiler c, String mutex, boolean pi, List<Op> out) {
    if (pi) {
      piLock(c, c.lockClass(mutex), out);
    } else {
      mutexLock(c.waitQueue(mutex), out);
    }
  }

  private static void unlock(ProgramCompiler c, String mutex, boolean pi, List<Op> out) {
    if (pi) {
      piUnlock(c.lockClass(mutex), out);
    } else {
      mutexUnlock(c.waitQueue(mutex), out);
    }
  }

  /**
   * glibc's {@code lll_lock()}: the fast path's compare-and-swap, then the loop of {@code
   * __lll_lock_wait()}: exchange the word to 2, and while it was not free, {@code futex_wait()}.
   */
  private static void mutexLock(WaitQueue futex, List<Op> out) {
    Op fast = new Op(Op.MUTEX_LOCK);
    fast.waitQueue = futex;
    out.add(fast);
    int fastAt = out.size() - 1;
    Op xchg = new Op(Op.MUTEX_XCHG);
    xchg.waitQueue = futex;
    out.add(xchg);
    int xchgAt = out.size() - 1;
    Op wait = new Op(Op.FUTEX_WAIT);
    wait.waitQueue = futex;
    syscall(out, wait);
    Op retry = new Op(Op.MUTEX_RETRY);
    out.add(retry);
    retry.jump = out.size() - 1 - xchgAt;
    fast.jump = out.size() - fastAt;
    xchg.jump = out.size() - xchgAt;
  }

  /** glibc's {@code lll_unlock()}: the word to 0, and {@code futex_wake()} if it was 2. */
  private static void mutexUnlock(WaitQueue futex, List<Op> out) {
    Op unlock = new Op(Op.MUTEX_UNLOCK);
    unlock.waitQueue = futex;
    Op wake = new Op(Op.FUTEX_WAKE);
    wake.waitQueue = futex;
    unlessFast(out, unlock, wake);
  }

  /**
   * {@code pthread_mutex_lock()} of a PI mutex: the user-space compare-and-swap, else {@code
   * futex_lock_pi()}: its futex part ({@code cost.futex_wait}, the hash bucket and the word), then
   * the rt_mutex.
   */
  private static void piLock(ProgramCompiler c, LockClass lock, List<Op> out) {
    Op fast = new Op(Op.PI_USER_LOCK);
    fast.lockClass = lock;
    Op path = new Op(Op.KSEG);
    path.dist = Dist.fixed(c.cost(Param.FUTEX_WAIT));
    Op take = new Op(Op.LOCK);
    take.lockClass = lock;
    unlessFast(out, fast, path, take);
  }

  /** {@code pthread_mutex_unlock()} of a PI mutex: user space, else {@code futex_unlock_pi()}. */
  private static void piUnlock(LockClass lock, List<Op> out) {
    Op fast = new Op(Op.PI_USER_UNLOCK);
    fast.lockClass = lock;
    Op give = new Op(Op.UNLOCK);
    give.lockClass = lock;
    unlessFast(out, fast, give);
  }

  /** A user-space fast path, then a system call of {@code slow} that it skips when it succeeds. */
  private static void unlessFast(List<Op> out, Op fast, Op... slow) {
    out.add(fast);
    int at = out.size() - 1;
    out.add(new Op(Op.SYSCALL_ENTER));
    out.addAll(List.of(slow));
    out.add(new Op(Op.SYSCALL_EXIT));
    fast.jump = out.size() - at;
  }

  private static void syscall(List<Op> out, Op op) {
    out.add(new Op(Op.SYSCALL_ENTER));
    out.add(op);
    out.add(new Op(Op.SYSCALL_EXIT));
  }

  /** The CPUs of {@code cpus} on a machine of {@code nrCpus} ({@code ""}: all). */
  static BitSet mask(String cpus, int nrCpus) {
    BitSet m = CpuList.parse(cpus, nrCpus);
    if (m.isEmpty()) {
      m.set(0, nrCpus);
    }
    return m;
  }
}
