package dev.schedlab.engine.core;

import java.util.ArrayDeque;

/**
 * An {@code rcu_sync} (kernel/rcu/sync.c): the one of {@code cgroup_threadgroup_rwsem}, which every
 * write of a task into a cgroup takes for writing ({@code cgroup_attach_lock()}, {@code
 * percpu_down_write()}). A writer that finds it idle waits for a grace period ({@code
 * synchronize_rcu()}); writers that come while it is entered, or while its exit's grace period is
 * pending, pass at once; it goes idle a grace period after the last exit. So writes close together
 * are cheap and a lone write waits a grace period.
 */
final class RcuSync {
  private static final int IDLE = 0;
  private static final int ENTER = 1;
  private static final int PASSED = 2;
  private static final int EXIT = 3;
  private static final int REPLAY = 4;

  private final Kernel k;
  private int state = IDLE;

  /** {@code gp_count}: writers inside. */
  private int count;

  /** Writers waiting for the grace period that ends {@code ENTER}. */
  private final ArrayDeque<Task> waiters = new ArrayDeque<>();

  RcuSync(Kernel k) {
    this.k = k;
  }

  /**
   * {@code rcu_sync_enter()} by {@code t} on {@code cpu}: true when {@code t} must sleep until a
   * grace period has passed (it is woken then).
   */
  boolean enter(Cpu cpu, Task t) {
    count++;
    if (state == IDLE) {
      state = ENTER;
      k.rcu.synchronize(cpu, new WorkItem(0, this::gracePeriodPassed, cpu.id));
    }
    if (state == ENTER) {
      waiters.add(t);
      return true;
    }
    return false; // PASSED, or EXIT/REPLAY: a grace period passed since the last writer entered
  }

  /** {@code rcu_sync_exit()} on {@code cpu}. */
  void exit(Cpu cpu) {
    if (--count > 0) {
      return;
    }
    if (state == PASSED) {
      state = EXIT;
      callRcu(cpu.id);
    } else if (state == EXIT) {
      state = REPLAY;
    }
  }

  private void callRcu(int cpu) {
    k.rcu.callRcu(k.cpus[cpu], new WorkItem(0, this::gracePeriodPassed, cpu));
  }

  /** {@code rcu_sync_func()}, a grace period after the call. */
  private void gracePeriodPassed(int cpu) {
    if (count > 0) {
      state = PASSED;
      for (Task w; (w = waiters.poll()) != null; ) {
        k.sched.wakeUp(w, 0);
      }
    } else if (state == REPLAY) {
      state = EXIT; // another exit since: wait for a later grace period
      callRcu(cpu);
    } else {
      state = IDLE;
    }
  }
}
