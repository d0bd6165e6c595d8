package dev.schedlab.engine.core;

import dev.schedlab.api.Policy;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedMode;
import dev.schedlab.api.TaskState;
import dev.schedlab.engine.params.Param;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Runs the ops of {@link ThreadSteps} for {@link TaskExec}.
 *
 * <p>Models: {@code sched_yield()} ({@code yield_task_rt()}'s requeue at the tail of the priority
 * list, the other classes' {@code yield_task}, then {@code schedule()}); a thread's move to another
 * task group ({@code sched_move_task()}); {@code sched_setaffinity()} on oneself (the new mask, and
 * when it excludes the current CPU a move to an allowed CPU once switched out); absolute {@code
 * clock_nanosleep()}; rt-app's periodic timer (next expiry, slack, missed periods); glibc's mutexes
 * on a futex word ({@code lll_lock}/{@code lll_unlock}: user-space fast paths, {@code futex_wait()}
 * while the word says "locked, waited for", a woken waiter tries again, so a thread that locks in
 * between keeps the mutex); condition variables with the futex wait queued before the mutex is
 * released; a barrier whose last arrival wakes every waiter; a socket's send buffer (a writer
 * sleeps while the buffer is full and every waiting writer is woken once a reader has freed it down
 * to the wake mark); {@code fork} of a task from a template; clock reads into per-task time series.
 *
 * <p>A task whose new affinity excludes its CPU is moved by that CPU's stopper ({@code
 * migration_cpu_stop()}), which preempts it where the call re-enables preemption or finds it asleep
 * waiting for the move.
 *
 * <p>Does not model: futex hash-bucket locking (a futex call costs its measured path, {@code
 * cost.futex_wait} or {@code cost.futex_wake}, without contention on the bucket).
 *
 * <p>Kernel reference: {@code do_sched_yield()}, {@code yield_task_rt()}, {@code
 * __set_cpus_allowed_ptr()} and {@code affine_move_task()} (kernel/sched/core.c, rt.c); {@code
 * futex_wait()}/{@code futex_wake()} behind glibc's condition variables and barriers; {@code
 * sock_alloc_send_pskb()}, {@code sock_wait_for_wmem()}, {@code sock_wfree()} (net/core/sock.c) and
 * {@code unix_write_space()} (net/unix/af_unix.c).
 */
final class ThreadOps {
  private final Kernel k;
  private final TaskExec exec;

  /** {@code cgroup_threadgroup_rwsem}'s rcu_sync, which every cgroup write enters. */
  private final RcuSync threadgroupRwsem;

  /** The lines of socket messages, created with the first one. */
  private @Nullable SocketLines sockets;

  ThreadOps(Kernel k, TaskExec exec) {
    this.k = k;
    this.exec = exec;
    this.threadgroupRwsem = new RcuSync(k);
  }

  /**
   * Starts {@code op}: true when it took no time and the interpreter goes on (pc advanced), false
   * when it runs, sleeps or switched.
   */
  boolean start(Cpu cpu, Task t, Op op) {
    switch (op.code) {
      case Op.USER_WALL -> {
        long d = exec.draw(t, op.dist);
        t.wallEnd = k.now + d;
        exec.run(cpu, t, op, d);
        return false;
      }
      case Op.YIELD -> {
        t.pc++;
        if (t.onRq && (t.policy == Policy.FIFO || t.policy == Policy.RR)) {
          k.sched.account(cpu);
          t.sclass.dequeue(cpu, t, 0);
          t.sclass.enqueue(cpu, t, 0);
        } else if (t.onRq) {
          k.sched.account(cpu); // update_curr() inside yield_task_fair() / yield_task_dl()
          t.sclass.yieldTask(cpu, t);
        }
        k.sched.schedule(cpu, SchedMode.NONE, 0);
        return false;
      }
      case Op.AFFINITY -> {
        t.pc++;
        t.allowed = op.cpus;
        t.nrAllowed = op.cpus.cardinality();
        if (!op.cpus.get(cpu.id)) {
          // affine_move_task(): it runs here, so this CPU's stopper moves it
          int dest = distribute(cpu, op.cpus);
          t.affinityMovePending = true;
          k.balancer.stopOneCpu(cpu, c -> migrationCpuStop(t, dest));
        }
        return true;
      }
      case Op.AFFINITY_WAIT -> {
        t.pc++;
        if (!t.affinityMovePending) {
          return true; // preempted by the stopper, which moved it already
        }
        t.state = TaskState.UNINTERRUPTIBLE; // wait_for_completion(&pending->done)
        k.sched.schedule(cpu, SchedMode.NONE, 0);
        return false;
      }
      case Op.SLEEP_ABS -> {
        t.pc++;
        long at = op.atNs + Math.max(0, op.stamp[0]);
        if (at <= k.now) {
          return true;
        }
        exec.sleepUntil(cpu, t, at);
        return false;
      }
      case Op.TIMER_ARM -> {
        return timerArm(t, op);
      }
      case Op.TIMER_SLEEP -> {
        t.pc++;
        exec.sleepUntil(cpu, t, t.timerWait.target);
        return false;
      }
      case Op.SIGNAL -> {
        k.pathCost = 0;
        do {
          Task w = op.waitQueue.sleepers.poll();
          if (w == null) {
            break;
          }
          k.sched.wakeUp(w, 0);
        } while (op.flag);
        exec.run(cpu, t, op, k.pathCost);
        return false;
      }
      case Op.COND_QUEUE -> {
        if (op.lockClass != null && !k.locks.holds(t, op.lockClass)) {
          t.pc += op.jump; // the PI unlock's owner check fails: EPERM, no wait
          return true;
        }
        t.pc++;
        op.waitQueue.sleepers.add(t); // a signal from now on takes this waiter
        return true;
      }
      case Op.COND_SLEEP -> {
        long cost = k.costs.p(Param.FUTEX_WAIT);
        if (!op.waitQueue.sleepers.contains(t)) {
          exec.run(cpu, t, op, cost); // -EAGAIN: signalled since it queued
          return false;
        }
        t.pc++;
        t.state = TaskState.INTERRUPTIBLE;
        k.sched.schedule(cpu, SchedMode.NONE, cost);
        return false;
      }
      case Op.MUTEX_LOCK -> {
        if (op.waitQueue.futexWord == 0) {
          op.waitQueue.futexWord = 1;
          t.pc += op.jump;
        } else {
          t.pc++;
        }
        return true;
      }
      case Op.MUTEX_XCHG -> {
        int old = op.waitQueue.futexWord;
        op.waitQueue.futexWord = 2;
        t.pc += old == 0 ? op.jump : 1;
        return true;
      }
      case Op.FUTEX_WAIT -> {
        long cost = k.costs.p(Param.FUTEX_WAIT);
        if (op.waitQueue.futexWord != 2) {
          exec.run(cpu, t, op, cost); // -EAGAIN: the word changed before the task was queued
          return false;
        }
        t.pc++;
        sleepOn(cpu, t, op.waitQueue, cost);
        return false;
      }
      case Op.PI_USER_LOCK -> {
        t.pc += k.locks.userLock(cpu, t, op.lockClass) ? op.jump : 1;
        return true;
      }
      case Op.PI_USER_UNLOCK -> {
        t.pc += k.locks.userUnlock(t, op.lockClass) ? op.jump : 1;
        return true;
      }
      case Op.CGROUP_LOCK -> {
        t.pc++;
        if (threadgroupRwsem.enter(cpu, t)) {
          t.state = TaskState.UNINTERRUPTIBLE; // synchronize_rcu()
          k.sched.schedule(cpu, SchedMode.NONE, 0);
          return false;
        }
        return true;
      }
      case Op.CGROUP -> {
        t.pc++;
        moveGroup(cpu, t, op.count);
        threadgroupRwsem.exit(cpu);
        return true;
      }
      case Op.MUTEX_RETRY -> {
        t.pc -= op.jump;
        return true;
      }
      case Op.MUTEX_UNLOCK -> {
        int old = op.waitQueue.futexWord;
        op.waitQueue.futexWord = 0;
        t.pc += old == 2 ? 1 : op.jump;
        return true;
      }
      case Op.FUTEX_WAKE -> {
        k.pathCost = 0;
        Task w = op.waitQueue.sleepers.poll();
        if (w != null) {
          k.sched.wakeUp(w, 0);
        }
        exec.run(cpu, t, op, k.costs.p(Param.FUTEX_WAKE) + k.pathCost);
        return false;
      }
      case Op.BARRIER -> {
        return barrier(cpu, t, op);
      }
      case Op.BARRIER_ARRIVE -> {
        BarrierState b = op.barrier;
        if (b.arrived == b.users - 1) {
          t.pc++; // everyone else waits: broadcast
        } else {
          b.arrived++;
          t.pc += op.jump;
        }
        return true;
      }
      case Op.BARRIER_LEAVE -> {
        t.pc++;
        op.barrier.arrived--;
        return true;
      }
      case Op.JUMP -> {
        t.pc += op.jump;
        return true;
      }
      case Op.CHARGE -> {
        return charge(cpu, t, op);
      }
      case Op.UNCHARGE -> {
        return uncharge(cpu, t, op);
      }
      case Op.MESSAGE -> {
        return message(cpu, t, op);
      }
      case Op.FORK -> {
        t.pc++;
        k.taskFactory.fork(t, op);
        return true;
      }
      case Op.CLOCK -> {
        t.pc++;
        Objects.requireNonNull(op.times).add(k.now);
        return true;
      }
      case Op.SLICE -> {
        t.pc++;
        t.customSlice = op.costNs;
        return true;
      }
      default -> {
        throw new IllegalStateException("unknown op " + op.code);
      }
    }
  }

  /**
   * {@code sched_move_task()} of the running {@code t}: dequeued and put back, its group changed
   * ({@code task_change_group_fair()}: its class queues it on the new group's runqueue), queued and
   * set as current again, then rescheduled, as the new group may be throttled.
   */
  private void moveGroup(Cpu cpu, Task t, int group) {
    if (t.taskGroup == group) {
      return;
    }
    k.sched.account(cpu);
    t.sclass.putPrev(cpu, t);
    t.sclass.dequeue(cpu, t, 0);
    t.taskGroup = group;
    t.sclass.enqueue(cpu, t, 0);
    t.sclass.setNext(cpu, t);
    k.sched.resched(cpu, ReschedReason.FORCE);
  }

  private boolean timerArm(Task t, Op op) {
    RtTimer tm = op.timer;
    if (!tm.started) {
      tm.started = true;
      tm.next = op.firstNs + Math.max(0, op.stamp[0]);
    }
    tm.next += op.periodNs;
    if (op.times != null) {
      op.times.add(tm.next - k.now);
    }
    if (k.now < tm.next) {
      t.timerWait.target = tm.next;
      t.timerWait.pendingWakeTimes = op.times2;
      t.pc++;
    } else {
      if (op.relative) {
        tm.next = k.now;
      }
      t.pc += op.jump;
    }
    return true;
  }

  private boolean barrier(Cpu cpu, Task t, Op op) {
    BarrierState b = op.barrier;
    if (++b.arrived < b.users) {
      t.pc++;
      sleepOn(cpu, t, b.sleepers);
      return false;
    }
    b.arrived = 0;
    wakeAll(cpu, t, op, b.sleepers, 0);
    return false;
  }

  /**
   * sock_alloc_send_pskb(): room below the limit is charged at once; otherwise sleep on the buffer
   * (sock_wait_for_wmem()) with pc left here, so that each wakeup checks again.
   */
  private boolean charge(Cpu cpu, Task t, Op op) {
    WaitQueue buf = op.waitQueue;
    if (buf.charged < op.limit) {
      buf.charged += op.bytes;
      t.pc++;
      return true;
    }
    sleepOn(cpu, t, buf);
    return false;
  }

  /**
   * sock_wfree() then unix_write_space(): at or below the wake mark, every writer waiting for room
   * is woken (its wait entry is not exclusive).
   */
  private boolean uncharge(Cpu cpu, Task t, Op op) {
    WaitQueue buf = op.waitQueue;
    buf.charged -= op.bytes;
    if (buf.charged > op.limit || buf.sleepers.isEmpty()) {
      t.pc++;
      return true;
    }
    wakeAll(cpu, t, op, buf, op.flag ? SchedFlags.WF_SYNC : 0);
    return false;
  }

  /** A socket message written or read: the wait for the cache lines the other CPU holds. */
  private boolean message(Cpu cpu, Task t, Op op) {
    SocketLines s = sockets;
    if (s == null) {
      s = new SocketLines(k.cpus.length, k.costs.p(Param.CACHE_PRIVATE_LINES));
      sockets = s;
    }
    long wait =
        op.flag
            ? s.write(cpu, op.waitQueue, op.count, op.sharedLines, k.irqs)
            : s.read(cpu, op.waitQueue, op.count, op.sharedLines, k.irqs);
    if (wait == 0) {
      t.pc++;
      return true;
    }
    exec.run(cpu, t, op, wait);
    return false;
  }

  /** {@code t} sleeps (interruptibly) on {@code q} until a waker takes it off. */
  private void sleepOn(Cpu cpu, Task t, WaitQueue q) {
    sleepOn(cpu, t, q, 0);
  }

  /** Queues {@code t} on {@code q} and schedules, after {@code pathCost} ns of kernel path. */
  private void sleepOn(Cpu cpu, Task t, WaitQueue q, long pathCost) {
    q.sleepers.add(t);
    t.state = TaskState.INTERRUPTIBLE;
    k.sched.schedule(cpu, SchedMode.NONE, pathCost);
  }

  /** {@code t} wakes every sleeper of {@code q}; the wakeups' cost is its op's. */
  private void wakeAll(Cpu cpu, Task t, Op op, WaitQueue q, int wakeFlags) {
    k.pathCost = 0;
    for (Task w; (w = q.sleepers.poll()) != null; ) {
      k.sched.wakeUp(w, wakeFlags);
    }
    exec.run(cpu, t, op, k.pathCost);
  }

  /** Back in user space after a timer sleep: rt-app's wake-up latency. */
  void backInUser(Task t) {
    t.timerWait.backInUser(k.now);
  }

  /**
   * {@code cpumask_any_and_distribute()} on {@code cpu}: the next allowed CPU after the one it gave
   * last (the first call skips CPU 0, as the kernel's does).
   */
  private int distribute(Cpu cpu, java.util.BitSet allowed) {
    int next = allowed.nextSetBit(cpu.distributePrev + 1);
    if (next < 0 || next >= k.cpus.length) {
      next = allowed.nextSetBit(0);
    }
    cpu.distributePrev = next;
    return next;
  }

  /**
   * {@code migration_cpu_stop()} on the stopper of {@code p}'s CPU: a task preempted inside its
   * {@code sched_setaffinity()} is still queued and is moved queued ({@code move_queued_task()});
   * one asleep in {@code wait_for_completion()} gets {@code wake_cpu} and is woken by {@code
   * complete_all()}, placed from there. A sleep that {@code DELAY_DEQUEUE} left queued is dequeued
   * first.
   */
  private void migrationCpuStop(Task p, int dest) {
    if (!p.affinityMovePending) {
      return;
    }
    p.affinityMovePending = false;
    Cpu src = k.cpus[p.cpu];
    if (p.state == TaskState.RUNNING) {
      k.sched.moveQueued(p, src, k.cpus[dest]);
      return;
    }
    if (p.onRq) {
      k.sched.account(src);
      p.sclass.dequeue(src, p, SchedFlags.DEQUEUE_MIGRATING);
      k.services.completeDelayedDequeue(p);
    }
    p.cpu = dest;
    k.sched.wakeUp(p, 0);
  }
}
