package dev.schedlab.classes;

import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;
import org.jspecify.annotations.Nullable;

/**
 * {@code select_task_rq_fair()}: where a waking or new fair task is queued.
 *
 * <p>Models: {@code record_wakee()} and {@code wake_wide()} (wakee flips against the LLC size); the
 * walk up the waker CPU's domains to the lowest one with SD_WAKE_AFFINE spanning prev, the highest
 * with SD_BALANCE_FORK for a fork (no level has SD_BALANCE_WAKE; {@code sd_init()} clears the two
 * on a NUMA level farther than {@code node_reclaim_distance}, so a wakeup across it stays near prev
 * and a fork stays on the forking node: {@link SchedDomainView#wakeAffine()}); {@code
 * wake_affine()} with {@code wake_affine_idle()} (WA_IDLE: an idle waker CPU sharing prev's cache
 * defers to an idle prev; a WF_SYNC wakeup from a CPU whose only runnable task is the waker targets
 * the waker's CPU; an idle prev) and {@code wake_affine_weight()} (WA_WEIGHT, WA_BIAS: PELT load of
 * the two CPUs, the waker's own load taken off for WF_SYNC, weighed by capacity and half the
 * domain's imbalance_pct; before v5.5 their runnable load, {@code
 * feature.WA_WEIGHT_RUNNABLE_LOAD}); {@code select_idle_sibling()}: target, prev, the
 * per-CPU-kthread stacking, {@code recent_used_cpu}, {@code select_idle_capacity()} on
 * asymmetric-capacity machines, {@code select_idle_smt()} on prev's core, {@code select_idle_cpu()}
 * over the LLC from target + 1 with {@code select_idle_core()} while the LLC has an idle core, and
 * SIS_UTIL's scan depth ({@code nr_idle_scan}, set by the load balancer) or SIS_PROP's ({@code
 * feature.SIS_PROP}, from the waker's avg_idle and avg_scan_cost); each CPU the scan probes costs
 * {@code cost.sis_per_cpu}. With {@code feature.SIS_CORE_CPU_SMT}, v4.17's {@code
 * select_idle_sibling()} ({@link FairSelectIdle417}: target, prev, recent_used_cpu set to the
 * waker's CPU after an affine wakeup, then the core, CPU and target-SMT scans). New tasks go
 * through {@link FairForkPlacement}. With {@code sched.vcpu_pack_util}, the out-of-tree vCPU
 * packing of this project's guest kernel as measured: a busy target with room keeps the wakee; with
 * {@code sched.vcpu_pack_fork_util}, the forking CPU keeps a new task while the parent is all it
 * runs and it has room.
 *
 * <p>Does not model: EAS ({@code find_energy_efficient_cpu()}), uclamp, clusters, core scheduling
 * cookies, WF_CURRENT_CPU, exec balancing (there is no exec), vCPU preemption ({@code
 * available_idle_cpu()} is {@code idle_cpu()}), {@code record_wakee()} for a waker that is not a
 * fair task.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code select_task_rq_fair}, {@code wake_wide},
 * {@code wake_affine}, {@code wake_affine_idle}, {@code wake_affine_weight}, {@code
 * select_idle_sibling}, {@code select_idle_cpu}, {@code select_idle_core}, {@code select_idle_smt},
 * {@code select_idle_capacity}).
 */
final class FairSelect {
  private final MachineView m;
  private final SchedServices services;
  private final FairClass fair;
  private final boolean waIdle;
  private final boolean waWeight;
  private final boolean waBias;

  /** {@code feature.WA_WEIGHT_RUNNABLE_LOAD}: v4.17 weighs runnable load, blocked load left out. */
  private final boolean waRunnableLoad;

  private final boolean sisUtil;

  /** {@code feature.SIS_PROP}: v4.11-v6.5's scan depth from avg_idle and avg_scan_cost. */
  private final boolean sisProp;

  /** {@code feature.SIS_CORE_CPU_SMT}: v4.17's {@code select_idle_sibling()}. */
  private final boolean sisCoreCpuSmt;

  private final long sisPerCpu;

  /** {@code sched.vcpu_pack_util}: 1024ths of a target's capacity a wakee may pack into; 0 off. */
  private final long vcpuPackUtil;

  /** {@code sched.vcpu_pack_fork_util}: the same for new tasks on the forking CPU; 0 off. */
  private final long vcpuPackForkUtil;

  /** CPUs {@code select_idle_core()} took out of the scan (cores already seen). */
  private final BitSet scanned = new BitSet();

  private final FairProbe probe;
  private final FairSelectIdle417 idle417;
  private final FairForkPlacement fork;

  FairSelect(MachineView m, SchedServices services, FairClass fair) {
    this.m = m;
    this.services = services;
    this.fair = fair;
    this.waIdle = Params.feature(services, "WA_IDLE");
    this.waWeight = Params.feature(services, "WA_WEIGHT");
    this.waBias = Params.feature(services, "WA_BIAS");
    this.waRunnableLoad = Params.feature(services, "WA_WEIGHT_RUNNABLE_LOAD");
    this.sisUtil = Params.feature(services, "SIS_UTIL");
    this.sisProp = Params.feature(services, "SIS_PROP");
    this.sisCoreCpuSmt = Params.feature(services, "SIS_CORE_CPU_SMT");
    this.sisPerCpu = services.param("cost.sis_per_cpu");
    this.vcpuPackUtil = services.param("sched.vcpu_pack_util");
    this.vcpuPackForkUtil = services.param("sched.vcpu_pack_fork_util");
    this.probe = new FairProbe(m, fair);
    this.idle417 = new FairSelectIdle417(m, services, probe);
    this.fork =
        new FairForkPlacement(m, fair, probe, Params.feature(services, "FIND_IDLEST_BY_LOAD"));
  }

  int select(TaskView p, int prevCpu, int cpu, int wakeFlags) {
    boolean sync = (wakeFlags & SchedFlags.WF_SYNC) != 0;
    boolean ttwu = (wakeFlags & SchedFlags.WF_TTWU) != 0;
    int newCpu = prevCpu;
    boolean wantAffine = false;
    if (ttwu) {
      recordWakee(p, cpu);
      wantAffine = !wakeWide(p, cpu) && p.allowedOn(cpu);
    }
    SchedDomainView sd = null;
    int levels = m.nrDomains(cpu);
    for (int l = 0; l < levels; l++) {
      SchedDomainView tmpSd = m.domain(cpu, l);
      if (wantAffine && tmpSd.wakeAffine() && tmpSd.contains(prevCpu)) {
        if (cpu != prevCpu) {
          newCpu = wakeAffine(tmpSd, p, cpu, prevCpu, sync);
        }
        sd = null;
        break;
      }
      if ((wakeFlags & SchedFlags.WF_FORK) != 0 && tmpSd.balanceFork()) {
        sd = tmpSd;
      } else if (!wantAffine) {
        break;
      }
    }
    if (sd != null) {
      if (vcpuPackForkUtil > 0 && p.allowedOn(cpu) && hasForkRoom(cpu)) {
        return cpu; // the parent's vCPU keeps the child; no idle vCPU woken
      }
      return fork.findDstCpu(sd, p, cpu, prevCpu);
    }
    if (!ttwu) {
      return newCpu;
    }
    if (!sisCoreCpuSmt) {
      return selectIdleSibling(p, prevCpu, newCpu, cpu);
    }
    int target = selectIdleSibling417(p, prevCpu, newCpu, cpu);
    FairEntity waker = FairClass.entityOf(m.cpu(cpu).rq().curr());
    if (wantAffine && waker != null) {
      waker.recentUsedCpu = cpu; // v4.16-v5.14: the waker's CPU, not the wakee's prev
    }
    return target;
  }

  // ---------------- wake_wide / wake_affine ----------------

  /** {@code record_wakee()} on the waker ({@code current}). */
  private void recordWakee(TaskView p, int cpu) {
    FairEntity cur = FairClass.entityOf(m.cpu(cpu).rq().curr());
    if (cur == null) {
      return;
    }
    long jiffies = services.jiffies();
    if (jiffies > cur.wakeeFlipDecayTs + m.hz()) {
      cur.wakeeFlips >>>= 1;
      cur.wakeeFlipDecayTs = jiffies;
    }
    if (cur.lastWakee != p) {
      cur.lastWakee = p;
      cur.wakeeFlips++;
    }
  }

  /** {@code wake_wide()}: a waker/wakee relation spread over more tasks than the LLC has CPUs. */
  private boolean wakeWide(TaskView p, int cpu) {
    FairEntity cur = FairClass.entityOf(m.cpu(cpu).rq().curr());
    FairEntity pe = FairClass.entityOf(p);
    long master = cur == null ? 0 : cur.wakeeFlips;
    long slave = pe == null ? 0 : pe.wakeeFlips;
    int factor = m.llcWeight(cpu);
    if (master < slave) {
      long t = master;
      master = slave;
      slave = t;
    }
    return !(slave < factor || master < slave * factor);
  }

  private int wakeAffine(SchedDomainView sd, TaskView p, int thisCpu, int prevCpu, boolean sync) {
    int target = -1;
    if (waIdle) {
      target = wakeAffineIdle(thisCpu, prevCpu, sync);
    }
    if (waWeight && target < 0) {
      target = wakeAffineWeight(sd, p, thisCpu, prevCpu, sync);
    }
    return target == thisCpu ? thisCpu : prevCpu;
  }

  private int wakeAffineIdle(int thisCpu, int prevCpu, boolean sync) {
    if (probe.idle(thisCpu) && m.sharesLlc(thisCpu, prevCpu)) {
      return probe.idle(prevCpu) ? prevCpu : thisCpu;
    }
    if (sync && m.cpu(thisCpu).rq().nrRunning() - fair.rq(thisCpu).hNrDelayed == 1) {
      return thisCpu;
    }
    return probe.idle(prevCpu) ? prevCpu : -1;
  }

  /** {@code cpu_load()} (v5.5+), or v4.17's {@code weighted_cpuload()} (runnable load). */
  private long wakeLoad(int cpu) {
    return waRunnableLoad ? probe.cpuRunnableLoad(cpu) : probe.cpuLoad(cpu);
  }

  private int wakeAffineWeight(
      SchedDomainView sd, TaskView p, int thisCpu, int prevCpu, boolean sync) {
    long thisEff = wakeLoad(thisCpu);
    if (sync) {
      long currentLoad = fair.taskHLoad(m.cpu(thisCpu).rq().curr());
      if (currentLoad > thisEff) {
        return thisCpu;
      }
      thisEff -= currentLoad;
    }
    long taskLoad = fair.taskHLoad(p);
    thisEff += taskLoad;
    if (waBias) {
      thisEff *= 100;
    }
    thisEff *= m.cpu(prevCpu).capacity();
    long prevEff = wakeLoad(prevCpu) - taskLoad;
    if (waBias) {
      prevEff *= 100 + (sd.imbalancePct() - 100) / 2;
    }
    prevEff *= m.cpu(thisCpu).capacity();
    if (sync) {
      prevEff += 1; // equal loads: let select_idle_sibling() consider stacking on the waker
    }
    return thisEff < prevEff ? thisCpu : -1;
  }

  // ---------------- select_idle_sibling ----------------

  /**
   * v4.17's {@code select_idle_sibling()}: idle target, idle prev sharing its cache, an idle {@code
   * recent_used_cpu} (replaced by prev only when taken), then {@link FairSelectIdle417}.
   */
  private int selectIdleSibling417(TaskView p, int prev, int target, int thisCpu) {
    if (probe.idle(target)) {
      return target;
    }
    if (prev != target && m.sharesLlc(prev, target) && probe.idle(prev)) {
      return prev;
    }
    FairEntity pe = fair.entity(p);
    int recent = pe.recentUsedCpu;
    if (recent >= 0
        && recent != prev
        && recent != target
        && m.sharesLlc(recent, target)
        && probe.idle(recent)
        && p.allowedOn(recent)) {
      pe.recentUsedCpu = prev;
      return recent;
    }
    SchedDomainView llc = llcDomain(target);
    if (llc == null) {
      return target;
    }
    int nr = Integer.MAX_VALUE;
    if (sisProp) {
      nr = idle417.propDepth(thisCpu, llc);
    } else if (sisUtil) {
      nr = m.llcNrIdleScan(target) + 1;
    }
    return idle417.selectIdleTail(p, llc, target, thisCpu, nr);
  }

  private int selectIdleSibling(TaskView p, int prev, int target, int thisCpu) {
    boolean asym = m.asymCapacity();
    long util = 0;
    if (asym) {
      util = probe.taskUtilEst(p, true);
    }
    if (probe.idleOrSchedIdle(target) && asymFits(asym, util, target)) {
      return target;
    }
    if (vcpuPackUtil > 0 && hasPackingRoom(p, target)) {
      return target; // no idle vCPU woken while a busy one has room
    }
    if (prev != target
        && m.sharesLlc(prev, target)
        && probe.idleOrSchedIdle(prev)
        && asymFits(asym, util, prev)) {
      return prev;
    }
    TaskView current = m.cpu(thisCpu).rq().curr();
    if (current.isKthread()
        && !current.isIdleTask()
        && current.nrAllowed() == 1
        && prev == thisCpu
        && m.cpu(thisCpu).rq().nrRunning() <= 1
        && asymFits(asym, util, prev)) {
      return prev; // a per-CPU kthread (IO completion) stacks with the wakee
    }
    FairEntity pe = fair.entity(p);
    int recent = pe.recentUsedCpu;
    pe.recentUsedCpu = prev;
    if (recent >= 0
        && recent != prev
        && recent != target
        && m.sharesLlc(recent, target)
        && probe.idleOrSchedIdle(recent)
        && p.allowedOn(recent)
        && asymFits(asym, util, recent)) {
      return recent;
    }
    if (asym) {
      SchedDomainView sd = lowestAsymDomain(target);
      if (sd != null) {
        int i = selectIdleCapacity(p, sd, target);
        return i >= 0 ? i : target;
      }
    }
    SchedDomainView llc = llcDomain(target);
    if (llc == null) {
      return target;
    }
    boolean hasIdleCore = false;
    if (m.smtActive()) {
      hasIdleCore = m.llcHasIdleCores(target);
      if (!hasIdleCore && m.sharesLlc(prev, target)) {
        int i = selectIdleSmt(p, llc, prev);
        if (i >= 0) {
          return i;
        }
      }
    }
    int i = selectIdleCpu(p, llc, hasIdleCore, target, thisCpu);
    return i >= 0 ? i : target;
  }

  private int selectIdleSmt(TaskView p, SchedDomainView llc, int target) {
    int n = m.smtWeight(target);
    for (int i = 0; i < n; i++) {
      int c = m.smtSibling(target, i);
      if (c == target || !p.allowedOn(c) || !llc.contains(c)) {
        continue;
      }
      if (probe.idleOrSchedIdle(c)) {
        return c;
      }
    }
    return -1;
  }

  /** {@code select_idle_cpu()}: scan the LLC from target + 1, wrapping. */
  private int selectIdleCpu(
      TaskView p, SchedDomainView llc, boolean hasIdleCore, int target, int thisCpu) {
    int nr = Integer.MAX_VALUE;
    boolean prop = sisProp && !hasIdleCore;
    if (prop) {
      nr = idle417.propDepth(thisCpu, llc);
    }
    if (sisUtil) {
      nr = m.llcNrIdleScan(target) + 1;
      if (nr == 1) {
        return -1; // overloaded LLC: unlikely to have an idle CPU
      }
    }
    if (!hasIdleCore && fair.nrIdlePolicyTotal == 0 && p.nrAllowed() == m.nrCpus()) {
      return selectIdleCpuByMask(llc, nr, target, prop ? thisCpu : -1);
    }
    scanned.clear();
    idleCpu = -1;
    int probed = 0;
    int found = -1;
    for (int pass = 0; pass < 2 && found < 0; pass++) {
      int from = pass == 0 ? target + 1 : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target + 1;
      for (int c = llc.nextCpu(from); c >= 0 && c < to; c = llc.nextCpu(c + 1)) {
        if (!p.allowedOn(c) || scanned.get(c)) {
          continue;
        }
        if (hasIdleCore) {
          int core = selectIdleCore(p, llc, c);
          probed += m.smtWeight(c);
          if (core >= 0) {
            found = core;
            break;
          }
        } else {
          if (--nr <= 0) {
            services.addPathCost(probed * sisPerCpu);
            return -1;
          }
          probed++;
          if (probe.idleOrSchedIdle(c)) {
            found = c;
            break;
          }
        }
      }
    }
    services.addPathCost(probed * sisPerCpu);
    if (prop) {
      idle417.scanDone(thisCpu, probed * sisPerCpu);
    }
    if (found >= 0) {
      return found;
    }
    if (hasIdleCore) {
      services.setLlcHasIdleCores(target, false);
    }
    return idleCpu;
  }

  /**
   * The scan above when it probes single CPUs, the task may run anywhere and no CPU can be {@code
   * sched_idle_cpu()}: then the CPU it stops at is the first idle one of the LLC in wrap order from
   * {@code target + 1}, found in the machine's idle mask, and the CPUs it probes are counted, not
   * visited. Same CPU, same probe count and cost as the loop; {@code propCpu} is the waker CPU
   * whose SIS_PROP {@code avg_scan_cost} a completed scan updates, or -1.
   */
  private int selectIdleCpuByMask(SchedDomainView llc, int nr, int target, int propCpu) {
    int found = m.nextIdleCpu(llc, target + 1);
    int rank; // found's position in the scan order (1 = first probed), or the span's weight
    if (found >= 0) {
      rank = llc.weightIn(target + 1, found + 1);
    } else {
      found = m.nextIdleCpu(llc, 0);
      if (found > target) {
        found = -1; // the first pass saw every idle CPU above target: none
      }
      int above = llc.weightIn(target + 1, Integer.MAX_VALUE);
      rank = found >= 0 ? above + llc.weightIn(0, found + 1) : llc.weight();
    }
    // The loop counts nr down before each probe and gives up when it reaches 0: it probes at most
    // nr - 1 CPUs.
    if (propCpu >= 0 && rank < nr) {
      idle417.scanDone(propCpu, rank * sisPerCpu); // the scan ran to its end or found one
    }
    if (found >= 0 && rank < nr) {
      services.addPathCost(rank * sisPerCpu);
      return found;
    }
    services.addPathCost(Math.min(rank, nr - 1L) * sisPerCpu);
    return -1;
  }

  /** The fallback {@code select_idle_core()} keeps: the first idle thread seen, or -1. */
  private int idleCpu;

  /**
   * {@code select_idle_core()}: {@code core} when every thread of its core is idle; otherwise -1,
   * and the core leaves the scan ({@link #idleCpu} may have found a thread to fall back on).
   */
  private int selectIdleCore(TaskView p, SchedDomainView llc, int core) {
    boolean allIdle = true;
    int n = m.smtWeight(core);
    for (int i = 0; i < n; i++) {
      int c = m.smtSibling(core, i);
      boolean inMask = p.allowedOn(c) && llc.contains(c) && !scanned.get(c);
      if (!probe.idle(c)) {
        allIdle = false;
        if (idleCpu == -1) {
          if (probe.schedIdle(c) && inMask) {
            idleCpu = c;
            break;
          }
          continue;
        }
        break;
      }
      if (idleCpu == -1 && inMask) {
        idleCpu = c;
      }
    }
    if (allIdle) {
      return core;
    }
    for (int i = 0; i < n; i++) {
      scanned.set(m.smtSibling(core, i));
    }
    return -1;
  }

  /** {@code select_idle_capacity()}: an idle CPU the task fits, else the biggest idle one. */
  private int selectIdleCapacity(TaskView p, SchedDomainView sd, int target) {
    long util = probe.taskUtilEst(p, false);
    long bestCap = 0;
    int bestCpu = -1;
    for (int pass = 0; pass < 2; pass++) {
      int from = pass == 0 ? target : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target;
      for (int c = sd.nextCpu(from); c >= 0 && c < to; c = sd.nextCpu(c + 1)) {
        if (!p.allowedOn(c) || !probe.idleOrSchedIdle(c)) {
          continue;
        }
        long cap = m.cpu(c).capacity();
        if (FairProbe.fitsCapacity(util, cap)) {
          return c;
        }
        if (cap > bestCap) {
          bestCap = cap;
          bestCpu = c;
        }
      }
    }
    return bestCpu;
  }

  // ---------------- helpers ----------------

  /**
   * The measured vCPU packing rule ({@code sched.vcpu_pack_util}): the target has at most one task
   * runnable (delayed entities left out; the wakee would be the second: a third co-woken task goes
   * to the idle CPU on the guest, docs/validation.md 'Wakeup packing'), and its {@code util_avg}
   * without the wakee's blocked part, plus the wakee's, is below the threshold share of its
   * capacity. No {@code util_est}: the guest's pipe pair packs again while theirs sum past it.
   */
  private boolean hasPackingRoom(TaskView p, int target) {
    if (m.cpu(target).rq().nrRunning() - fair.rq(target).hNrDelayed > 1) {
      return false;
    }
    FairEntity pe = FairClass.entityOf(p);
    long wakeeUtil = pe == null ? 0 : pe.avg.utilAvg;
    long util = probe.cpuUtilAvgWithout(target, p.cpu() == target ? pe : null) + wakeeUtil;
    return belowShare(util, vcpuPackUtil, target);
  }

  /**
   * The measured fork packing rule ({@code sched.vcpu_pack_fork_util}): the forking CPU runs
   * nothing besides the parent (its current task; nothing at all for a task the scenario starts)
   * and its utilisation is below the threshold share of its capacity. The child adds no
   * utilisation: it gets its first share after placement ({@code post_init_entity_util_avg()}).
   */
  private boolean hasForkRoom(int cpu) {
    RqView rq = m.cpu(cpu).rq();
    int others = rq.nrRunning() - fair.rq(cpu).hNrDelayed - (rq.curr().isIdleTask() ? 0 : 1);
    return others <= 0 && belowShare(probe.cpuUtilWithout(cpu, null), vcpuPackForkUtil, cpu);
  }

  /** Whether {@code util} is below {@code share} 1024ths of {@code cpu}'s capacity. */
  private boolean belowShare(long util, long share, int cpu) {
    return util * 1024 < share * m.cpu(cpu).capacity();
  }

  /** {@code fits_capacity()}: util below 80 % of the capacity. */
  private boolean asymFits(boolean asym, long util, int cpu) {
    return !asym || FairProbe.fitsCapacity(util, m.cpu(cpu).capacity());
  }

  /**
   * {@code per_cpu(sd_llc)}: each CPU's highest domain sharing its LLC (null: none), found once on
   * first use (the domains are built before the run and never change), so a wakeup reads one array
   * slot instead of walking the CPU's domains.
   */
  private @Nullable SchedDomainView @Nullable [] sdLlc;

  private @Nullable SchedDomainView llcDomain(int cpu) {
    @Nullable SchedDomainView[] llcs = sdLlc;
    if (llcs == null) {
      llcs = new SchedDomainView[m.nrCpus()];
      for (int c = 0; c < llcs.length; c++) {
        llcs[c] = findLlcDomain(c);
      }
      sdLlc = llcs;
    }
    return llcs[cpu];
  }

  private @Nullable SchedDomainView findLlcDomain(int cpu) {
    SchedDomainView llc = null;
    int n = m.nrDomains(cpu);
    for (int l = 0; l < n; l++) {
      SchedDomainView sd = m.domain(cpu, l);
      if (!sd.sharesLlc()) {
        break;
      }
      llc = sd;
    }
    return llc;
  }

  private @Nullable SchedDomainView lowestAsymDomain(int cpu) {
    int n = m.nrDomains(cpu);
    for (int l = 0; l < n; l++) {
      if (m.domain(cpu, l).asymCapacity()) {
        return m.domain(cpu, l);
      }
    }
    return null;
  }
}
