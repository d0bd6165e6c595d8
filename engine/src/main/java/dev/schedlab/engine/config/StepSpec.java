package dev.schedlab.engine.config;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One step of a task program. In YAML each step is a one-key map, for example {@code - user:
 * 100us}.
 */
public sealed interface StepSpec {
  /** {@code user: DUR}: compute in user mode. */
  record User(Dist duration) implements StepSpec {}

  /**
   * {@code kernel: ...}: a syscall-like kernel path: entry, the segments in order, then exit to
   * user.
   */
  record Kernel(List<Segment> segments) implements StepSpec {
    public Kernel {
      segments = List.copyOf(segments);
    }
  }

  /**
   * {@code syscall: [PART, ...]}: one system call whose kernel path is the parts in order: kernel
   * segments ({@code kernel: ...}), wakeups ({@code wake: ...}) and blocking ({@code block: ...}),
   * for example a pipe write that copies and then wakes the reader ({@code pipe_write()} calls
   * {@code wake_up_interruptible_sync_poll()} before returning). A part may also be a {@link Loop}
   * of parts: a kernel loop such as a page walk ({@code __get_user_pages}, {@code zap_pte_range})
   * kept as one body and a count rather than one part per page.
   */
  record Syscall(List<StepSpec> parts) implements StepSpec {
    public Syscall {
      parts = List.copyOf(parts);
    }
  }

  /**
   * A kernel segment.
   *
   * @param duration how long it runs
   * @param preemptible preempt count zero (false = preempt-disabled span, e.g. under a spinlock)
   * @param irqsOff IRQs disabled for the whole segment
   * @param endsWith NONE, COND_RESCHED or MIGHT_RESCHED: the preemption point at its end
   * @param lock a lock operation instead of computation, or null
   * @param rcu RCU callbacks queued instead of computation ({@link RcuAction}), or null
   */
  record Segment(
      Dist duration,
      boolean preemptible,
      boolean irqsOff,
      String endsWith,
      @Nullable LockAction lock,
      @Nullable CacheAction cache,
      boolean perCached,
      @Nullable RcuAction rcu) {
    /** A segment, a lock operation or a cache operation, queuing no RCU callback. */
    public Segment(
        Dist duration,
        boolean preemptible,
        boolean irqsOff,
        String endsWith,
        @Nullable LockAction lock,
        @Nullable CacheAction cache,
        boolean perCached) {
      this(duration, preemptible, irqsOff, endsWith, lock, cache, perCached, null);
    }

    /** A plain segment (no lock operation). */
    public Segment(Dist duration, boolean preemptible, boolean irqsOff, String endsWith) {
      this(duration, preemptible, irqsOff, endsWith, null, null, false);
    }

    /** A segment, a lock operation or a cache operation. */
    public Segment(
        Dist duration,
        boolean preemptible,
        boolean irqsOff,
        String endsWith,
        @Nullable LockAction lock,
        @Nullable CacheAction cache) {
      this(duration, preemptible, irqsOff, endsWith, lock, cache, false);
    }

    /**
     * A segment whose {@code duration} is per object that the task's last cache operation moved
     * (the pages a pcp refill or drain moves under {@code zone->lock}): it runs that many draws'
     * worth, one draw times the count.
     */
    public static Segment perCachedObject(Dist duration) {
      return new Segment(duration, true, false, "NONE", null, null, true);
    }

    /**
     * {@code call_rcu()} of {@code callbacks} callbacks, each costing {@code costNs} when RCU
     * invokes it after a grace period ({@link RcuAction}); it takes no time of its own.
     */
    public static Segment callRcu(int callbacks, long costNs) {
      return new Segment(
          Dist.fixed(0), true, false, "NONE", null, null, false, new RcuAction(callbacks, costNs));
    }

    /** A segment or a lock operation. */
    public Segment(
        Dist duration,
        boolean preemptible,
        boolean irqsOff,
        String endsWith,
        @Nullable LockAction lock) {
      this(duration, preemptible, irqsOff, endsWith, lock, null);
    }

    /** A per-CPU cache operation guarding the next {@code then} items ({@link CacheAction}). */
    public static Segment cache(
        String name, boolean put, int count, int batch, int high, int then) {
      return cache(new CacheAction(name, put, count, batch, high, then));
    }

    /** A per-CPU cache operation ({@link CacheAction}). */
    public static Segment cache(CacheAction c) {
      return new Segment(Dist.fixed(0), true, false, "NONE", null, c);
    }

    /**
     * {@code lock: NAME}: take the named lock ({@code spin_lock[_irqsave]}, {@code mutex_lock},
     * {@code down_read}/{@code down_write}); the time it takes is the lock's wait.
     */
    public static Segment lock(String name, boolean irqsOff, boolean read) {
      return lock(name, irqsOff, read, 0);
    }

    /**
     * {@code lock: NAME} whose critical section writes {@code dataLines} cache lines of the data
     * the lock protects ({@link LockAction#dataLines}).
     */
    public static Segment lock(String name, boolean irqsOff, boolean read, int dataLines) {
      return new Segment(
          Dist.fixed(0), true, false, "NONE", new LockAction(name, true, irqsOff, read, dataLines));
    }

    /** {@code unlock: NAME}: release the named lock (the matching unlock of the kernel API). */
    public static Segment unlock(String name) {
      return new Segment(
          Dist.fixed(0), true, false, "NONE", new LockAction(name, false, false, false, 0));
    }
  }

  /**
   * RCU callbacks a kernel path queues with {@code call_rcu()} on its CPU (kernel/rcu/tree.c), for
   * example {@code tlb_remove_table_rcu()} for freed page tables (mm/mmu_gather.c) or SLUB's {@code
   * rcu_free_sheaf()} for a full sheaf of {@code kfree_rcu()}'d objects (mm/slub.c); RCU invokes
   * them in RCU_SOFTIRQ after a grace period (docs/model.md, "RCU").
   *
   * @param callbacks how many
   * @param costNs each one's cost when invoked, besides {@code cost.rcu_cb_overhead}
   */
  record RcuAction(int callbacks, long costNs) {
    public RcuAction {
      if (callbacks < 1 || costNs < 0) {
        throw new IllegalArgumentException(
            "RCU callbacks: need count >= 1 and cost >= 0, got " + callbacks + ", " + costNs);
      }
    }
  }

  /**
   * A lock operation in a kernel path (a {@link Segment} whose {@code lock} is set).
   *
   * @param lock the lock's name ({@code workload.locks}, or declared by a tool)
   * @param acquire lock (true) or unlock (false)
   * @param irqsOff {@code spin_lock_irqsave()}: interrupts off while waiting and holding (spinlocks
   *     only; a no-op for {@code spinlock_t} under PREEMPT_RT)
   * @param read {@code down_read()} instead of {@code down_write()} (rw_semaphores only)
   * @param dataLines cache lines of the protected data the critical section writes (an LRU list
   *     head, a shared counter), shared by every holder: a holder on another CPU than the one that
   *     wrote them last waits a transfer for each, with the lock held (acquire only; 0 = none)
   */
  record LockAction(String lock, boolean acquire, boolean irqsOff, boolean read, int dataLines) {
    public LockAction {
      if (dataLines < 0) {
        throw new IllegalArgumentException("dataLines < 0: " + dataLines);
      }
    }

    /** A lock operation whose critical section writes no shared data line. */
    public LockAction(String lock, boolean acquire, boolean irqsOff, boolean read) {
      this(lock, acquire, irqsOff, read, 0);
    }
  }

  /**
   * A per-CPU cache with batched refill and drain (the page allocator's pcp lists, the LRU's folio
   * batches): one count per CPU and name, shared by every task on the CPU. A get takes {@code
   * count} objects; when the CPU has fewer, the next {@code then} items (the refill, for example
   * {@code zone->lock} and the work under it) run first and add {@code batch}. A put adds {@code
   * count}; when the count reaches {@code high}, the next {@code then} items (the drain) run and
   * remove {@code batch}. Otherwise those items are skipped. With {@code auto} the sizes and the
   * high mark follow the pcp auto-tuning ({@link AutoHigh}); a {@link Segment#perCachedObject} item
   * among the {@code then} takes as long as the objects moved.
   *
   * @param cache the cache's name
   * @param put put (true) or get (false)
   * @param count objects taken or added
   * @param batch objects a refill adds or a drain removes
   * @param high the count at which a put drains (puts only; with {@code auto}: high_min)
   * @param then how many following items of the kernel path the refill or drain is
   * @param auto the pcp high auto-tuning, or null for fixed sizes
   */
  record CacheAction(
      String cache,
      boolean put,
      int count,
      int batch,
      int high,
      int then,
      @Nullable AutoHigh auto) {
    /** A cache with a fixed high mark and fixed refill and drain sizes. */
    public CacheAction(String cache, boolean put, int count, int batch, int high, int then) {
      this(cache, put, count, batch, high, then, null);
    }
  }

  /**
   * The page allocator's pcp high auto-tuning (v6.7, mm/page_alloc.c {@code nr_pcp_alloc}, {@code
   * nr_pcp_high}, {@code nr_pcp_free}, {@code decay_pcp_high}) for a {@link CacheAction}: {@code
   * high} is then the list's {@code high_min}, {@code batch} its base batch. A refill moves {@code
   * batch << alloc_factor} (alloc_factor grows per refill without a free between, up to {@code
   * scaleMax}, and halves per free) and raises high by as much; a free that fills the list raises
   * high to the consecutive frees plus a batch and drains the consecutive frees (at least a batch,
   * leaving a batch); high stays within {@code [high, highMax]}. A put of {@code count} 0 is {@code
   * decay_pcp_high()}: high loses an eighth (not below the count less {@code batch << scaleMax}),
   * and the pages above it drain. The zone is taken to be above its high watermark and not in
   * reclaim (no ZONE_BELOW_HIGH, ZONE_RECLAIM_ACTIVE).
   *
   * @param highMax the list's {@code high_max}
   * @param scaleMax CONFIG_PCP_BATCH_SCALE_MAX
   */
  record AutoHigh(int highMax, int scaleMax) {}

  /**
   * The program-level {@code lock: NAME} step: a syscall that takes a sleeping lock and returns to
   * user holding it (rt-app's {@code lock} resource maps here).
   */
  static Kernel lockStep(String name, boolean read) {
    return new Kernel(List.of(Segment.lock(name, false, read)));
  }

  /** The program-level {@code unlock: NAME} step. */
  static Kernel unlockStep(String name) {
    return new Kernel(List.of(Segment.unlock(name)));
  }

  /**
   * {@code sleep: DUR} or {@code sleep: {duration: DUR, sample: NAME}}: relative {@code
   * clock_nanosleep} on an hrtimer. With {@code sample}, records (back in user space) minus (step
   * start + duration), as stress-ng --cyclic measures.
   */
  record Sleep(Dist duration, @Nullable String sample) implements StepSpec {
    /** A sleep without a sample. */
    public Sleep(Dist duration) {
      this(duration, null);
    }
  }

  /**
   * {@code sleep_until: {period: DUR, ...}}: absolute {@code clock_nanosleep} to the next period
   * boundary, counted from when the task first reaches this step (cyclictest, timerlat). Each
   * sample names a latency series measured from the timer's expiry, or is null: {@code sample} to
   * back in user space, {@code irq_sample} to the hrtimer handler, {@code thread_sample} to the
   * task running again in the kernel, {@code ret_user_sample} to the task's next kernel entry after
   * its user part.
   */
  record SleepUntil(
      long periodNs,
      @Nullable String sample,
      @Nullable String irqSample,
      @Nullable String threadSample,
      @Nullable String retUserSample)
      implements StepSpec {
    /** A periodic sleep with only the user-space sample. */
    public SleepUntil(long periodNs, @Nullable String sample) {
      this(periodNs, sample, null, null, null);
    }
  }

  /** {@code block: WAITQ}: sleep on a named wait queue until woken. */
  record Block(String waitQueue) implements StepSpec {}

  /**
   * {@code wake: {waitq: NAME, sync: BOOL}}: wake one sleeper of the wait queue (WF_SYNC if sync).
   */
  record Wake(String waitQueue, boolean sync) implements StepSpec {}

  /** {@code call: {cpu: N, cost: DUR, wait: BOOL}}: {@code smp_call_function_single}. */
  record Call(int cpu, long costNs, boolean waitDone) implements StepSpec {}

  /** {@code loop: {count: N, body: [...]}}: repeat the body N times. */
  record Loop(int count, List<StepSpec> body) implements StepSpec {
    public Loop {
      body = List.copyOf(body);
    }
  }

  /**
   * For each value {@code v} of the task's draw sequence {@code draws} ({@link TaskSpec#draws()}),
   * in order, runs {@code choices.get(v)}: a loop over the choices a task drew when its program was
   * laid out (a tool's random flags or advices). Tasks that differ only in what they drew share one
   * program and its compiled ops; the draws are the task's own data. Generated programs only.
   */
  record Pick(String draws, List<List<StepSpec>> choices) implements StepSpec {
    public Pick {
      choices = choices.stream().map(List::copyOf).toList();
    }
  }

  /**
   * {@code mark: NAME}: count one occurrence of NAME in the metrics (e.g. operations done), from
   * {@code fromNs} of simulated time on (a tool's warm-up is not counted). With {@code afterStamp},
   * {@code fromNs} counts from the time of that {@link Stamp} and nothing counts before it is
   * stamped (a warm-up that starts when a tool releases its workers).
   */
  record Mark(String counter, long fromNs, @Nullable String afterStamp) implements StepSpec {
    /** A mark counted from the start of the run. */
    public Mark(String counter) {
      this(counter, 0);
    }

    /** A mark counted from {@code fromNs} of simulated time. */
    public Mark(String counter, long fromNs) {
      this(counter, fromNs, null);
    }
  }

  /**
   * Compute in user mode until {@code duration} of wall time has passed since the step started
   * (rt-app's {@code runtime}: time preempted or in interrupts counts towards it).
   */
  record UserWall(Dist duration) implements StepSpec {}

  /** {@code sched_yield()}: an RT task goes to the tail of its priority list, then schedule(). */
  record Yield() implements StepSpec {}

  /**
   * {@code sched_setaffinity(0, cpus)} by the task itself ({@code ""} = every CPU): when its CPU is
   * no longer allowed it is moved to an allowed one.
   */
  record Affinity(String cpus) implements StepSpec {}

  /**
   * Absolute {@code clock_nanosleep(TIMER_ABSTIME)} to {@code atNs}, counted from the {@link Stamp}
   * {@code from} when given (0 before it is taken); returns at once when past.
   */
  record SleepAbs(long atNs, @Nullable String from) implements StepSpec {
    public SleepAbs(long atNs) {
      this(atNs, null);
    }
  }

  /**
   * A periodic timer shared by every task naming {@code ref} (or, with {@code perTask}, private to
   * each task), as rt-app's {@code timer}: the first use sets the next expiry to {@code firstNs};
   * each use adds {@code periodNs} and sleeps (absolute) until it. A use that finds the expiry
   * already past does not sleep and, when {@code relative}, restarts the period from now. With
   * {@code slackKey} the expiry minus the current time is stamped before the decision, and with
   * {@code wakeKey} the time back in user space minus the expiry after a sleep (see {@link Clock}).
   * With {@code from}, {@code firstNs} counts from the {@link Stamp} of that name (rt-app's {@code
   * t_zero}).
   */
  record Timer(
      String ref,
      long periodNs,
      boolean relative,
      boolean perTask,
      long firstNs,
      @Nullable String slackKey,
      @Nullable String wakeKey,
      @Nullable String from)
      implements StepSpec {}

  /**
   * {@code pthread_cond_signal} ({@code all} false) or {@code pthread_cond_broadcast}: wakes one or
   * every sleeper of the wait queue; a signal that finds no sleeper is lost (no memory).
   */
  record Signal(String waitQueue, boolean all) implements StepSpec {}

  /**
   * {@code pthread_cond_wait(cond, mutex)} as glibc 2.25+ does it (nptl/pthread_cond_wait.c): queue
   * on {@code cond} as a waiter, unlock the mutex, {@code futex_wait()} on the condition unless a
   * signal took the waiter off it meanwhile, then lock the mutex again. {@code mutex} is the futex
   * of a default mutex ({@link MutexLock}), or with {@code pi} the {@code rt_mutex} lock of a
   * priority-inheritance one ({@link PiMutexLock}): the condition itself has no priority
   * inheritance (no {@code futex_wait_requeue_pi()}), only the mutex's unlock and retake. A PI
   * mutex the thread does not hold fails the wait at once ({@code EPERM}, no sleep).
   */
  record CondWait(String cond, String mutex, boolean pi) implements StepSpec {
    /** A wait with the default mutex on futex {@code mutex}. */
    public CondWait(String cond, String mutex) {
      this(cond, mutex, false);
    }
  }

  /**
   * {@code pthread_mutex_lock()} of a process-wide mutex (glibc's {@code lll_lock} on a futex word,
   * no priority inheritance): a compare-and-swap in user space when it is free; otherwise the word
   * is set to "waited for" and the thread sleeps in {@code futex_wait()} until woken, then tries
   * again, so a thread that takes the mutex in between keeps it (no handoff).
   */
  record MutexLock(String mutex) implements StepSpec {}

  /**
   * {@code pthread_mutex_unlock()}: the word back to 0 in user space, and a {@code futex_wake()} of
   * one sleeper when the word said it might be waited for.
   */
  record MutexUnlock(String mutex) implements StepSpec {}

  /**
   * {@code pthread_mutex_lock()} of a priority-inheritance mutex ({@code PTHREAD_PRIO_INHERIT}) on
   * the declared {@code rt_mutex} lock {@code lock}: a compare-and-swap of the owner's TID in user
   * space when it is free and unwaited; otherwise {@code futex_lock_pi()}, whose rt_mutex spins
   * while the owner runs, queues by priority and lends the waiter's priority to the owner.
   */
  record PiMutexLock(String lock) implements StepSpec {}

  /**
   * {@code pthread_mutex_unlock()} of a priority-inheritance mutex: the compare-and-swap back to 0
   * in user space while nobody waits; otherwise {@code futex_unlock_pi()}, which hands the lock to
   * the top waiter and ends the owner's boost. A thread that does not hold it gets {@code EPERM}
   * (glibc's owner check) and nothing changes.
   */
  record PiMutexUnlock(String lock) implements StepSpec {}

  /**
   * {@code sock_alloc_send_pskb()}: wait for room in a socket's send buffer, then charge {@code
   * bytes} to it ({@code skb_set_owner_w()}). While the buffer holds {@code limit} bytes or more
   * the task sleeps on the buffer's wait queue ({@code sock_wait_for_wmem()}), and checks again
   * each time it is woken.
   */
  record Charge(String buffer, long bytes, long limit) implements StepSpec {}

  /**
   * {@code sock_wfree()}: the reader frees a buffer, giving its {@code bytes} back; when at most
   * {@code wakeAt} bytes stay charged, every task waiting for room is woken ({@code
   * sk_write_space}, {@code unix_write_space()}: WF_SYNC if {@code sync}).
   */
  record Uncharge(String buffer, long bytes, long wakeAt, boolean sync) implements StepSpec {}

  /**
   * One message through a socket's receive queue {@code queue} (a syscall's part): written by the
   * sender ({@code unix_stream_sendmsg()}: the skb allocated, filled and queued) or read and freed
   * by the receiver ({@code unix_stream_read_generic()}, {@code consume_skb()}). A side waits a
   * cache-line transfer for each line the other CPU wrote or holds: the message's {@code lines}
   * (its data and the skb's metadata) when written and read on different CPUs, or when the writer
   * gets back memory another CPU freed; and each of the socket's {@code sharedLines}, which both
   * sides write for every message, when the other side wrote it last.
   */
  record Message(String queue, boolean write, int lines, int sharedLines) implements StepSpec {
    public Message {
      if (lines < 0 || sharedLines < 0) {
        throw new IllegalArgumentException(
            "message: need lines >= 0 and shared lines >= 0, got " + lines + ", " + sharedLines);
      }
    }
  }

  /**
   * A barrier of {@code users} tasks: the last to arrive wakes the others, who wait until then.
   * Plain ({@code mutex} null), it is {@code pthread_barrier_wait()}: the waiters sleep on a futex
   * and all wake at the last arrival. With {@code mutex}, it is built from a mutex and a condition
   * as rt-app's {@code barrier} event is (src/rt-app.c): under the mutex (a default one on futex
   * {@code mutex}, or with {@code pi} the {@code rt_mutex} lock {@code mutex}) a thread that finds
   * {@code users - 1} others waiting broadcasts the condition, any other counts itself and waits on
   * it ({@link CondWait}, which retakes the mutex, so the woken waiters contend for it), uncounts
   * itself and unlocks.
   */
  record Barrier(String name, int users, @Nullable String mutex, boolean pi) implements StepSpec {
    /** {@code pthread_barrier_wait()} of {@code users} tasks. */
    public Barrier(String name, int users) {
      this(name, users, null, false);
    }
  }

  /**
   * Creates a new task from the workload's task group named {@code template} (a group of count 0 is
   * a template only), named {@code namePrefix + index + "-" + nnnn}: index counts from {@code
   * firstIndex} over every fork of the run, nnnn the forks of this template (rt-app's {@code
   * fork}). The clone cost is a separate kernel step. A {@code firstIndex} below 0 names the child
   * {@code template} itself (the scenario's {@code fork} step of a {@code forked} task). A {@code
   * thread} shares its parent's address space ({@code pthread_create()}: {@code clone(CLONE_VM)}),
   * so a switch between the two is the lighter one; otherwise the child has an mm of its own.
   */
  record Fork(String template, String namePrefix, int firstIndex, boolean thread)
      implements StepSpec {
    /** A new process ({@code fork()}). */
    public Fork(String template, String namePrefix, int firstIndex) {
      this(template, namePrefix, firstIndex, false);
    }
  }

  /**
   * The thread writes its TID to a cgroup's {@code cgroup.threads} (rt-app's taskgroup switch at a
   * phase start): {@code sched_move_task()} moves it to task group {@code group} ("" the root)
   * while it runs; nothing when it is in that group already.
   */
  record Cgroup(String group) implements StepSpec {}

  /**
   * Appends the current time (ns) to the task's time series {@code key} ({@code clock_gettime()} in
   * user space), found in the result's raw samples as {@code clock/COMM/KEY}. Takes no time.
   */
  record Clock(String key) implements StepSpec {}

  /**
   * {@code sched_setattr(sched_runtime)} of a fair task: its custom slice from its next enqueue.
   */
  record Slice(long ns) implements StepSpec {}

  /**
   * {@code stamp: NAME}: remember the current time under NAME, for a {@link Since} of any task (a
   * timestamp written into a pipe).
   */
  record Stamp(String name) implements StepSpec {}

  /**
   * {@code since: {stamp: NAME, sample: SERIES}}: record the time since the last {@link Stamp} NAME
   * into latency series SERIES (no sample before the first stamp).
   */
  record Since(String stamp, String sample) implements StepSpec {}

  /** {@code exit}: the task exits. */
  record Exit() implements StepSpec {}
}
