package dev.schedlab.engine.core;

import dev.schedlab.api.IpiPath;
import dev.schedlab.api.hook.NohzControl;
import dev.schedlab.engine.params.Param;
import java.util.BitSet;

/**
 * nohz idle load balancing (section 1.10). Plugins reach it through {@link NohzControl}.
 *
 * <p>Models: the global {@code nohz} state, the per-runqueue {@code nohz_flags}, {@code
 * nohz_balance_enter_idle()} (hook H6), {@code nohz_balancer_kick()} with its NEXT_KICK stage (H7),
 * {@code kick_ilb()} and {@code find_new_ilb()} sending the kick as a cross-CPU call (IPI or
 * polling shortcut, counted under the ILB_KICK path), {@code nohz_csd_func()}, {@code
 * _nohz_idle_balance()} (H10), {@code nohz_newidle_balance()} (H8) and {@code
 * nohz_run_idle_balance()} (H9).
 *
 * <p>Does not model: blocked load as a signal (it is a flag per runqueue that clears once the CPU
 * has been idle for {@code latency.blocked_load_decay}, PELT decaying to zero); the capacity,
 * misfit and asymmetric-packing kick reasons.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code nohz_balance_enter_idle}, {@code
 * nohz_balancer_kick}, {@code kick_ilb}, {@code find_new_ilb}, {@code _nohz_idle_balance}, {@code
 * nohz_newidle_balance}, {@code nohz_run_idle_balance}), {@code kernel/sched/core.c} ({@code
 * nohz_csd_func}).
 */
final class Nohz implements NohzControl {
  private final Kernel k;
  private final BitSet idleMask = new BitSet();
  private final BitSet housekeeping;
  private final int[] llcBusy;
  private int nrCpus;
  private boolean hasBlockedLoad;
  private boolean needsUpdate;
  private long nextBalance;
  private long nextBlocked;
  private final MetricCounter kicks;
  private final MetricCounter kicksNext;
  private final MetricCounter kicksBalance;
  private final MetricCounter kicksStats;
  private final MetricCounter ilbRuns;
  private final MetricCounter localIlbRuns;
  private final MetricCounter csdWithoutKick;

  /** {@code rq->nohz_csd}'s function. */
  private final dev.schedlab.api.CallFunction nohzCsd = c -> csdFunc(cpuOf(c));

  /** {@code rd->max_cpu_capacity}. */
  private final long maxCapacity;

  Nohz(Kernel k, BitSet housekeeping) {
    this.k = k;
    this.housekeeping = housekeeping;
    int llcs = 0;
    for (Cpu c : k.cpus) {
      llcs = Math.max(llcs, c.llcId + 1);
    }
    llcBusy = new int[llcs];
    long max = 0;
    for (Cpu c : k.cpus) {
      llcBusy[c.llcId]++;
      max = Math.max(max, c.capacityOrig);
    }
    maxCapacity = max;
    kicks = k.metrics.counter("nohz.kicks");
    kicksNext = k.metrics.counter("nohz.kick_flags.next");
    kicksBalance = k.metrics.counter("nohz.kick_flags.balance");
    kicksStats = k.metrics.counter("nohz.kick_flags.stats");
    ilbRuns = k.metrics.counter("nohz.idle_balance_runs");
    localIlbRuns = k.metrics.counter("nohz.idle_balance_runs_local");
    csdWithoutKick = k.metrics.counter("nohz.csd_without_kick_flags");
  }

  // ---------------- engine entry points ----------------

  /** The tick of {@code cpu} went from running to stopped: {@code nohz_balance_enter_idle()}. */
  void tickStopped(Cpu cpu) {
    if (!housekeeping.get(cpu.id) || cpu.domains.length == 0) {
      return; // !housekeeping_cpu(cpu, HK_TYPE_SCHED) / on_null_domain()
    }
    k.ext.nohzEnterIdle().enterIdle(cpu.id, this);
  }

  /** {@code nohz_balance_exit_idle()}: a busy tick on a CPU still in the idle mask. */
  private void exitIdle(Cpu cpu) {
    if (cpu.nohzTickStopped) {
      cpu.nohzTickStopped = false;
      idleMask.clear(cpu.id);
      nrCpus--;
      llcBusy[cpu.llcId]++;
    }
  }

  /** {@code nohz_balancer_kick()} from the tick of {@code cpu}. */
  void balancerKick(Cpu cpu) {
    if (cpu.idleBalance) {
      return;
    }
    exitIdle(cpu);
    if (nrCpus == 0) {
      return;
    }
    long now = k.jiffies();
    int flags = 0;
    if (hasBlockedLoad && now > nextBlocked) {
      flags = STATS_KICK;
    }
    if (now >= nextBalance && needsBalance(cpu)) {
      flags = STATS_KICK | BALANCE_KICK;
    }
    flags = k.ext.nohzKick().kickFlags(cpu.id, this, flags);
    if (flags != 0) {
      kickIlb(cpu, flags);
    }
  }

  /**
   * The reasons {@code nohz_balancer_kick()} asks for a balance: a waiting task; a fair task on a
   * CPU whose capacity RT/DL/IRQ time reduced; on an asymmetric-capacity machine a misfit task (and
   * nothing else: there the LLC test does not apply); else another busy CPU in the LLC.
   */
  private boolean needsBalance(Cpu cpu) {
    if (cpu.nrRunning >= 2) {
      return true;
    }
    if (cpu.domains.length > 0 && cpu.fairNr >= 1 && LbEnv.checkCpuCapacity(cpu, cpu.domains[0])) {
      return true;
    }
    if (k.asymCapacity) {
      return cpu.misfitTaskLoad != 0
          && (cpu.capacityOrig < maxCapacity
              || (cpu.domains.length > 0 && LbEnv.checkCpuCapacity(cpu, cpu.domains[0])));
    }
    return llcBusy[cpu.llcId] > 1;
  }

  /** {@code kick_ilb()}: pick the idle load balancer and send it a CSD. */
  private void kickIlb(Cpu from, int flags) {
    if ((flags & BALANCE_KICK) != 0) {
      nextBalance = k.jiffies() + 1;
    }
    int ilb = findNewIlb(from.id);
    if (ilb < 0) {
      return;
    }
    Cpu target = k.cpus[ilb];
    if ((target.nohzFlags & flags) == flags) {
      return;
    }
    int old = target.nohzFlags;
    target.nohzFlags |= flags;
    if ((old & KICK_MASK) != 0) {
      return;
    }
    kicks.value++;
    if ((flags & NEXT_KICK) != 0) {
      kicksNext.value++;
    }
    if ((flags & BALANCE_KICK) != 0) {
      kicksBalance.value++;
    }
    if ((flags & STATS_KICK) != 0) {
      kicksStats.value++;
    }
    k.irqs.callFunction(from, target, 0, nohzCsd, null, IpiPath.ILB_KICK);
  }

  /** {@code find_new_ilb()}: the first idle housekeeping CPU in the idle mask other than self. */
  private int findNewIlb(int self) {
    for (int i = idleMask.nextSetBit(0); i >= 0; i = idleMask.nextSetBit(i + 1)) {
      if (i != self && housekeeping.get(i) && k.cpus[i].isIdle()) {
        return i;
      }
    }
    return -1;
  }

  private Cpu cpuOf(int c) {
    return k.cpus[c];
  }

  /** {@code nohz_csd_func()} on the kicked CPU. */
  private void csdFunc(Cpu cpu) {
    int flags = cpu.nohzFlags & KICK_MASK;
    cpu.nohzFlags &= ~KICK_MASK;
    if (flags == 0) {
      csdWithoutKick.value++; // WARN_ON(!(flags & NOHZ_KICK_MASK))
    }
    cpu.idleBalance = cpu.isIdle();
    boolean skip = k.costs.on(Param.ILB_SKIP_IF_NEED_RESCHED) && cpu.curr.needResched;
    if (cpu.idleBalance && !skip) {
      cpu.nohzIdleBalance = flags;
      cpu.schedSoftirq = true;
    }
  }

  /** In SCHED_SOFTIRQ: {@code nohz_idle_balance()}; returns whether a kick was handled. */
  boolean runKickedBalance(Cpu cpu, int idle) {
    int flags = cpu.nohzIdleBalance;
    if (flags == 0) {
      return false;
    }
    cpu.nohzIdleBalance = 0;
    if (idle != LoadBalancer.CPU_IDLE) {
      return false;
    }
    ilbRuns.value++;
    run(cpu, flags, idle);
    return true;
  }

  /** A newidle balance pulled nothing: {@code nohz_newidle_balance()} (H8). */
  void newidleFailed(Cpu cpu) {
    if (!housekeeping.get(cpu.id)) {
      return;
    }
    k.ext.newidleFail().onNewidleFail(cpu.id, this, k.jiffies(), k.costs.p(Param.MIGRATION_COST));
  }

  /** Top of {@code do_idle()}: {@code nohz_run_idle_balance()} (H9). */
  void idleTop(Cpu cpu) {
    k.ext.idleTop().onDoIdleTop(cpu.id, this);
  }

  /** {@code _nohz_idle_balance()} run by {@code cpu} now; cost goes to {@link Kernel#pathCost}. */
  private void run(Cpu cpu, int flags, int idle) {
    long now = k.jiffies();
    long next = now + 60L * k.hz;
    boolean updateNext = false;
    // Assume the idle load is fully decayed after this pass; a CPU still decaying sets it again.
    boolean blocked = false;
    if ((flags & STATS_KICK) != 0) {
      hasBlockedLoad = false;
    }
    if ((flags & NEXT_KICK) != 0) {
      needsUpdate = false;
    }
    // for_each_cpu_wrap(idle_cpus_mask, this_cpu + 1)
    for (int i = nextIdleWrapped(cpu.id, cpu.id); i >= 0; i = nextIdleWrapped(i, cpu.id)) {
      Cpu other = k.cpus[i];
      if (!other.isIdle()) {
        continue;
      }
      if (abortIlb(cpu)) {
        if ((flags & STATS_KICK) != 0) {
          blocked = true;
        }
        if ((flags & NEXT_KICK) != 0) {
          needsUpdate = true;
        }
        if (blocked) {
          hasBlockedLoad = true;
        }
        return;
      }
      if ((flags & STATS_KICK) != 0) {
        k.pathCost += k.costs.p(Param.NOHZ_STATS_PER_CPU);
        blocked |= updateStats(other);
      }
      if ((flags & BALANCE_KICK) != 0 && now >= other.nextBalance) {
        k.balancer.balanceDomains(other, LoadBalancer.CPU_IDLE);
      }
      if (next > other.nextBalance) {
        next = other.nextBalance;
        updateNext = true;
      }
    }
    if (idle != LoadBalancer.CPU_NEWLY_IDLE) {
      blocked |= updateStats(cpu);
    }
    if ((flags & BALANCE_KICK) != 0) {
      k.balancer.balanceDomains(cpu, LoadBalancer.CPU_IDLE);
    }
    if ((flags & STATS_KICK) != 0) {
      nextBlocked = now + 32L * k.hz / 1000; // LOAD_AVG_PERIOD ms
    }
    if (blocked) {
      hasBlockedLoad = true;
    }
    if (updateNext) {
      nextBalance = next;
    }
  }

  /** The next CPU of the idle mask after {@code from}, wrapping, stopping before {@code self}. */
  private int nextIdleWrapped(int from, int self) {
    int i = idleMask.nextSetBit(from + 1);
    boolean wrapped = from < self;
    if (i < 0 && !wrapped) {
      i = idleMask.nextSetBit(0);
      wrapped = true;
    }
    return i < 0 || (wrapped && i >= self) ? -1 : i;
  }

  /** Whether the balancing CPU got work: v6.6 {@code need_resched()}. */
  private boolean abortIlb(Cpu cpu) {
    return cpu.curr.needResched;
  }

  /** {@code update_nohz_stats()}: true while the runqueue still has blocked load to decay. */
  private boolean updateStats(Cpu c) {
    if (!c.hasBlockedLoad) {
      return false;
    }
    k.balancer.updateBlockedAverages(c); // the PELT decay itself; the flag follows the timer below
    if (k.now - c.lastBlockedUpdate >= k.costs.p(Param.BLOCKED_LOAD_DECAY) && c.isIdle()) {
      c.hasBlockedLoad = false;
    }
    return c.hasBlockedLoad;
  }

  /** A task ran on {@code c}: it has load that will need decaying once idle. */
  void busy(Cpu c) {
    c.hasBlockedLoad = true;
    c.lastBlockedUpdate = k.now;
  }

  // ---------------- NohzControl (for hooks) ----------------

  @Override
  public boolean inIdleMask(int cpu) {
    return idleMask.get(cpu);
  }

  @Override
  public void addToIdleMask(int cpu) {
    Cpu c = k.cpus[cpu];
    if (!c.nohzTickStopped) {
      c.nohzTickStopped = true;
      idleMask.set(cpu);
      nrCpus++;
      llcBusy[c.llcId]--;
    }
  }

  @Override
  public int nrCpus() {
    return nrCpus;
  }

  @Override
  public boolean needsUpdate() {
    return needsUpdate;
  }

  @Override
  public void setNeedsUpdate(boolean value) {
    needsUpdate = value;
  }

  @Override
  public boolean hasBlockedLoad() {
    return hasBlockedLoad;
  }

  @Override
  public void setHasBlockedLoad(boolean value) {
    hasBlockedLoad = value;
  }

  @Override
  public void setRqHasBlockedLoad(int cpu, boolean value) {
    k.cpus[cpu].hasBlockedLoad = value;
  }

  @Override
  public long nextBalance() {
    return nextBalance;
  }

  @Override
  public long nextBlocked() {
    return nextBlocked;
  }

  @Override
  public long rqNextBalance(int cpu) {
    return k.cpus[cpu].nextBalance;
  }

  @Override
  public long rqAvgIdleNs(int cpu) {
    return k.cpus[cpu].avgIdle;
  }

  @Override
  public int flags(int cpu) {
    return k.cpus[cpu].nohzFlags;
  }

  @Override
  public void orFlags(int cpu, int bits) {
    k.cpus[cpu].nohzFlags |= bits;
  }

  @Override
  public int fetchAndClearFlags(int cpu, int bits) {
    int old = k.cpus[cpu].nohzFlags;
    k.cpus[cpu].nohzFlags = old & ~bits;
    return old;
  }

  @Override
  public boolean needResched(int cpu) {
    return k.cpus[cpu].curr.needResched;
  }

  @Override
  public void idleBalance(int cpu, int flags) {
    localIlbRuns.value++;
    run(k.cpus[cpu], flags, LoadBalancer.CPU_IDLE);
  }
}
