package dev.schedlab.classes;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.SchedFlags;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.SchedDomainView;
import dev.schedlab.api.view.TaskView;
import java.util.BitSet;

/**
 * {@code select_task_rq_fair()}: where a waking or new fair task is queued.
 *
 * <p>Models: {@code record_wakee()} and {@code wake_wide()} (wakee flips against the LLC size);
 * the walk up the waker CPU's domains to the lowest one spanning prev (every level has
 * SD_WAKE_AFFINE and SD_BALANCE_FORK, none SD_BALANCE_WAKE); {@code wake_affine()} with
 * {@code wake_affine_idle()} (WA_IDLE: an idle waker CPU sharing prev's cache defers to an idle
 * prev; a WF_SYNC wakeup from a CPU whose only runnable task is the waker targets the waker's
 * CPU; an idle prev) and {@code wake_affine_weight()} (WA_WEIGHT, WA_BIAS: PELT load of the two
 * CPUs, the waker's own load taken off for WF_SYNC, weighed by capacity and half the domain's
 * imbalance_pct); {@code select_idle_sibling()}: target, prev, the per-CPU-kthread stacking,
 * {@code recent_used_cpu}, {@code select_idle_capacity()} on asymmetric-capacity machines,
 * {@code select_idle_smt()} on prev's core, {@code select_idle_cpu()} over the LLC from target + 1
 * with {@code select_idle_core()} while the LLC has an idle core, and SIS_UTIL's scan depth
 * ({@code nr_idle_scan}, set by the load balancer); each CPU the scan probes costs
 * {@code cost.sis_per_cpu}. Fork: {@code sched_balance_find_dst_cpu()} down the domains with
 * {@code sched_balance_find_dst_group()} (wakeup group statistics without the task, group types,
 * most idle CPUs / lowest util / lowest avg_load, the imbalance margins) and
 * {@code sched_balance_find_dst_group_cpu()} (the idle CPU in the shallowest idle state, most
 * recently idled at equal depth, else the least loaded).
 *
 * <p>Does not model: EAS ({@code find_energy_efficient_cpu()}), uclamp, clusters, core
 * scheduling cookies, NUMA preferred nodes and {@code imb_numa_nr}, WF_CURRENT_CPU, exec
 * balancing (there is no exec), vCPU preemption ({@code available_idle_cpu()} is
 * {@code idle_cpu()}), {@code record_wakee()} for a waker that is not a fair task.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code select_task_rq_fair},
 * {@code wake_wide}, {@code wake_affine}, {@code wake_affine_idle}, {@code wake_affine_weight},
 * {@code select_idle_sibling}, {@code select_idle_cpu}, {@code select_idle_core},
 * {@code select_idle_smt}, {@code select_idle_capacity}, {@code sched_balance_find_dst_cpu},
 * {@code sched_balance_find_dst_group}, {@code update_sg_wakeup_stats},
 * {@code sched_balance_find_dst_group_cpu}).
 */
final class FairSelect {
  private final MachineView m;
  private final SchedServices services;
  private final FairClass fair;
  private final boolean waIdle;
  private final boolean waWeight;
  private final boolean waBias;
  private final boolean sisUtil;
  private final long sisPerCpu;
  /** CPUs {@code select_idle_core()} took out of the scan (cores already seen). */
  private final BitSet scanned = new BitSet();
  private final GroupStats local = new GroupStats();
  private final GroupStats idlest = new GroupStats();
  private final GroupStats tmp = new GroupStats();

  FairSelect(MachineView m, SchedServices services, FairClass fair) {
    this.m = m;
    this.services = services;
    this.fair = fair;
    this.waIdle = Params.feature(services, "WA_IDLE");
    this.waWeight = Params.feature(services, "WA_WEIGHT");
    this.waBias = Params.feature(services, "WA_BIAS");
    this.sisUtil = Params.feature(services, "SIS_UTIL");
    this.sisPerCpu = services.param("cost.sis_per_cpu");
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
      if (wantAffine && tmpSd.contains(prevCpu)) {
        if (cpu != prevCpu) {
          newCpu = wakeAffine(tmpSd, p, cpu, prevCpu, sync);
        }
        sd = null;
        break;
      }
      if ((wakeFlags & SchedFlags.WF_FORK) != 0) {
        sd = tmpSd;
      } else if (!wantAffine) {
        break;
      }
    }
    if (sd != null) {
      return findDstCpu(sd, p, cpu, prevCpu);
    }
    if (ttwu) {
      return selectIdleSibling(p, prevCpu, newCpu, cpu);
    }
    return newCpu;
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
    if (idle(thisCpu) && m.sharesLlc(thisCpu, prevCpu)) {
      return idle(prevCpu) ? prevCpu : thisCpu;
    }
    if (sync && m.cpu(thisCpu).rq().nrRunning() - fair.rq(thisCpu).hNrDelayed == 1) {
      return thisCpu;
    }
    return idle(prevCpu) ? prevCpu : -1;
  }

  private int wakeAffineWeight(SchedDomainView sd, TaskView p, int thisCpu, int prevCpu,
      boolean sync) {
    long thisEff = cpuLoad(thisCpu);
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
    long prevEff = cpuLoad(prevCpu) - taskLoad;
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

  private int selectIdleSibling(TaskView p, int prev, int target, int thisCpu) {
    boolean asym = m.asymCapacity();
    long util = 0;
    if (asym) {
      util = taskUtilEst(p, true);
    }
    if (idleOrSchedIdle(target) && asymFits(asym, util, target)) {
      return target;
    }
    if (prev != target && m.sharesLlc(prev, target) && idleOrSchedIdle(prev)
        && asymFits(asym, util, prev)) {
      return prev;
    }
    TaskView current = m.cpu(thisCpu).rq().curr();
    if (current.isKthread() && !current.isIdleTask() && current.nrAllowed() == 1
        && prev == thisCpu && m.cpu(thisCpu).rq().nrRunning() <= 1 && asymFits(asym, util, prev)) {
      return prev; // a per-CPU kthread (IO completion) stacks with the wakee
    }
    FairEntity pe = fair.entity(p);
    int recent = pe.recentUsedCpu;
    pe.recentUsedCpu = prev;
    if (recent >= 0 && recent != prev && recent != target && m.sharesLlc(recent, target)
        && idleOrSchedIdle(recent) && p.allowedOn(recent) && asymFits(asym, util, recent)) {
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
    int i = selectIdleCpu(p, llc, hasIdleCore, target);
    return i >= 0 ? i : target;
  }

  private int selectIdleSmt(TaskView p, SchedDomainView llc, int target) {
    int n = m.smtWeight(target);
    for (int i = 0; i < n; i++) {
      int c = m.smtSibling(target, i);
      if (c == target || !p.allowedOn(c) || !llc.contains(c)) {
        continue;
      }
      if (idleOrSchedIdle(c)) {
        return c;
      }
    }
    return -1;
  }

  /** {@code select_idle_cpu()}: scan the LLC from target + 1, wrapping. */
  private int selectIdleCpu(TaskView p, SchedDomainView llc, boolean hasIdleCore, int target) {
    int nr = Integer.MAX_VALUE;
    if (sisUtil) {
      nr = m.llcNrIdleScan(target) + 1;
      if (nr == 1) {
        return -1; // overloaded LLC: unlikely to have an idle CPU
      }
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
          if (idleOrSchedIdle(c)) {
            found = c;
            break;
          }
        }
      }
    }
    services.addPathCost(probed * sisPerCpu);
    if (found >= 0) {
      return found;
    }
    if (hasIdleCore) {
      services.setLlcHasIdleCores(target, false);
    }
    return idleCpu;
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
      if (!idle(c)) {
        allIdle = false;
        if (idleCpu == -1) {
          if (schedIdle(c) && inMask) {
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
    long util = taskUtilEst(p, false);
    long bestCap = 0;
    int bestCpu = -1;
    for (int pass = 0; pass < 2; pass++) {
      int from = pass == 0 ? target : 0;
      int to = pass == 0 ? Integer.MAX_VALUE : target;
      for (int c = sd.nextCpu(from); c >= 0 && c < to; c = sd.nextCpu(c + 1)) {
        if (!p.allowedOn(c) || !idleOrSchedIdle(c)) {
          continue;
        }
        long cap = m.cpu(c).capacity();
        if (fitsCapacity(util, cap)) {
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

  // ---------------- fork: sched_balance_find_dst_cpu ----------------

  private int findDstCpu(SchedDomainView top, TaskView p, int cpu, int prevCpu) {
    if (!intersectsAllowed(top, p)) {
      return prevCpu;
    }
    int newCpu = cpu;
    SchedDomainView sd = top;
    int level = levelOf(cpu, top);
    while (sd != null) {
      int group = findDstGroup(sd, p, cpu);
      if (group < 0) {
        level--;
        sd = level >= 0 ? m.domain(cpu, level) : null;
        continue;
      }
      newCpu = findDstGroupCpu(sd, group, p, cpu);
      if (newCpu == cpu) {
        level--;
        sd = level >= 0 ? m.domain(cpu, level) : null;
        continue;
      }
      // Balance at the levels of new_cpu below the one just used.
      int weight = sd.weight();
      cpu = newCpu;
      sd = null;
      level = -1;
      int n = m.nrDomains(cpu);
      for (int l = 0; l < n; l++) {
        if (weight <= m.domain(cpu, l).weight()) {
          break;
        }
        sd = m.domain(cpu, l);
        level = l;
      }
    }
    return newCpu;
  }

  private int levelOf(int cpu, SchedDomainView sd) {
    int n = m.nrDomains(cpu);
    for (int l = 0; l < n; l++) {
      if (m.domain(cpu, l) == sd) {
        return l;
      }
    }
    return -1;
  }

  /** {@code sched_balance_find_dst_group()}: the idlest group, or -1 to stay local. */
  private int findDstGroup(SchedDomainView sd, TaskView p, int thisCpu) {
    int idlestGroup = -1;
    int localGroup = -1;
    idlest.reset();
    idlest.avgLoad = Long.MAX_VALUE;
    idlest.type = GroupStats.OVERLOADED;
    for (int g = 0; g < sd.nrGroups(); g++) {
      if (!groupIntersectsAllowed(sd, g, p)) {
        continue;
      }
      boolean isLocal = sd.groupNextCpu(g, thisCpu) == thisCpu;
      GroupStats sgs = isLocal ? local : tmp;
      wakeupStats(sd, g, sgs, p);
      if (isLocal) {
        localGroup = g;
      } else if (pickIdlest(sd, idlestGroup, g, sgs)) {
        idlestGroup = g;
        idlest.copyFrom(sgs);
      }
    }
    if (idlestGroup < 0) {
      return -1;
    }
    if (localGroup < 0) {
      return idlestGroup;
    }
    if (local.type < idlest.type) {
      return -1;
    }
    if (local.type > idlest.type) {
      return idlestGroup;
    }
    switch (local.type) {
      case GroupStats.OVERLOADED:
      case GroupStats.FULLY_BUSY: {
        long imbalance = 1024L * (sd.imbalancePct() - 100) / 100;
        if (sd.numa() && idlest.avgLoad + imbalance >= local.avgLoad) {
          return -1;
        }
        if (idlest.avgLoad >= local.avgLoad + imbalance) {
          return -1;
        }
        if (100 * local.avgLoad <= (long) sd.imbalancePct() * idlest.avgLoad) {
          return -1;
        }
        return idlestGroup;
      }
      case GroupStats.MISFIT_TASK:
        return sd.groupMaxCapacity(localGroup) >= sd.groupMaxCapacity(idlestGroup)
            ? -1 : idlestGroup;
      case GroupStats.HAS_SPARE:
        return local.idleCpus >= idlest.idleCpus ? -1 : idlestGroup;
      default:
        return -1;
    }
  }

  /** {@code update_pick_idlest()}. */
  private boolean pickIdlest(SchedDomainView sd, int idlestGroup, int g, GroupStats sgs) {
    if (sgs.type < idlest.type) {
      return true;
    }
    if (sgs.type > idlest.type) {
      return false;
    }
    switch (sgs.type) {
      case GroupStats.OVERLOADED:
      case GroupStats.FULLY_BUSY:
        return idlest.avgLoad > sgs.avgLoad;
      case GroupStats.MISFIT_TASK:
        return idlestGroup < 0 || sd.groupMaxCapacity(idlestGroup) < sd.groupMaxCapacity(g);
      case GroupStats.HAS_SPARE:
        if (idlest.idleCpus > sgs.idleCpus) {
          return false;
        }
        return !(idlest.idleCpus == sgs.idleCpus && idlest.util <= sgs.util);
      default:
        return false;
    }
  }

  /** {@code update_sg_wakeup_stats()}: the group's statistics without {@code p}. */
  private void wakeupStats(SchedDomainView sd, int g, GroupStats sgs, TaskView p) {
    sgs.reset();
    boolean misfit = sd.asymCapacity();
    long pUtil = sd.asymCapacity() ? taskUtilEst(p, false) : 0;
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (!p.allowedOn(c)) {
        continue;
      }
      FairRq q = fair.rq(c);
      FairEntity pe = FairClass.entityOf(p);
      boolean on = pe != null && pe.attachedTo != null && pe.attachedTo.cpu == c;
      sgs.load += Math.max(0, q.avg.loadAvg - (on ? fair.taskHLoad(p) : 0));
      sgs.util += cpuUtilWithout(c, on ? pe : null);
      sgs.runnable += Math.max(0, q.avg.runnableAvg - (on ? pe.avg.runnableAvg : 0));
      int local = on && pe.onRq ? 1 : 0;
      int nr = m.cpu(c).rq().nrRunning() - local;
      sgs.nrRunning += nr;
      if (nr == 0 && idleWithout(c, p)) {
        sgs.idleCpus++;
      }
      if (misfit && fitsCapacity(pUtil, m.cpu(c).capacity())) {
        misfit = false;
      }
    }
    sgs.misfitLoad = misfit ? 1 : 0;
    sgs.capacity = sd.groupCapacity(g);
    sgs.weight = sd.groupWeight(g);
    sgs.classify(sd.imbalancePct());
    if (sgs.type == GroupStats.FULLY_BUSY || sgs.type == GroupStats.OVERLOADED) {
      sgs.avgLoad = sgs.load * 1024 / Math.max(1, sgs.capacity);
    }
  }

  /** {@code sched_balance_find_dst_group_cpu()}. */
  private int findDstGroupCpu(SchedDomainView sd, int g, TaskView p, int thisCpu) {
    if (sd.groupWeight(g) == 1) {
      return sd.groupNextCpu(g, 0);
    }
    long minLoad = Long.MAX_VALUE;
    long minExitLatency = Long.MAX_VALUE;
    long latestIdle = Long.MIN_VALUE;
    int leastLoaded = thisCpu;
    int shallowest = -1;
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (!p.allowedOn(c)) {
        continue;
      }
      if (schedIdle(c)) {
        return c;
      }
      if (idle(c)) {
        int state = m.cpu(c).idleStateIndex();
        long exit = state >= 0 ? m.idleStates().get(state).exitLatencyNs() : -1;
        long stamp = m.cpu(c).rq().idleStampNs();
        if (state >= 0 && exit < minExitLatency) {
          minExitLatency = exit;
          latestIdle = stamp;
          shallowest = c;
        } else if ((state < 0 || exit == minExitLatency) && stamp > latestIdle) {
          latestIdle = stamp;
          shallowest = c;
        }
      } else if (shallowest == -1) {
        long load = cpuLoad(c);
        if (load < minLoad) {
          minLoad = load;
          leastLoaded = c;
        }
      }
    }
    return shallowest != -1 ? shallowest : leastLoaded;
  }

  // ---------------- helpers ----------------

  private boolean idle(int cpu) {
    return m.cpu(cpu).isIdle();
  }

  /** {@code sched_idle_cpu()}: only SCHED_IDLE tasks are runnable there. */
  private boolean schedIdle(int cpu) {
    int nr = m.cpu(cpu).rq().nrRunning();
    return nr > 0 && nr == fair.rq(cpu).nrIdlePolicy;
  }

  private boolean idleOrSchedIdle(int cpu) {
    return idle(cpu) || schedIdle(cpu);
  }

  /** {@code idle_cpu_without()} once nr_running without p is 0. */
  private boolean idleWithout(int cpu, TaskView p) {
    TaskView curr = m.cpu(cpu).rq().curr();
    if (!curr.isIdleTask() && curr != p) {
      return false;
    }
    return !m.cpu(cpu).rq().ttwuPending();
  }

  /** {@code cpu_load()}: the root runqueue's load_avg. */
  private long cpuLoad(int cpu) {
    return fair.rq(cpu).avg.loadAvg;
  }

  /** {@code cpu_util_without()}: util_avg (or util_est) without p's part, capped at capacity. */
  private long cpuUtilWithout(int cpu, FairEntity pe) {
    FairRq q = fair.rq(cpu);
    long util = q.avg.utilAvg;
    long est = q.avg.utilEst;
    if (pe != null) {
      util = Math.max(0, util - pe.avg.utilAvg);
      if (pe.onRq) {
        est = Math.max(0, est - pe.avg.utilEst);
      }
    }
    return Math.min(Math.max(util, est), m.cpu(cpu).capacityOrig());
  }

  /** {@code task_util_est()}, after {@code sync_entity_load_avg()} when asked. */
  private long taskUtilEst(TaskView p, boolean sync) {
    FairEntity pe = FairClass.entityOf(p);
    if (pe == null) {
      return 0;
    }
    if (sync) {
      FairPelt.sync(pe);
    }
    return Math.max(pe.avg.utilAvg, pe.avg.utilEst);
  }

  /** {@code fits_capacity()}: util below 80 % of the capacity. */
  static boolean fitsCapacity(long util, long capacity) {
    return util * 1280 < capacity * 1024;
  }

  private boolean asymFits(boolean asym, long util, int cpu) {
    return !asym || fitsCapacity(util, m.cpu(cpu).capacity());
  }

  private SchedDomainView llcDomain(int cpu) {
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

  private SchedDomainView lowestAsymDomain(int cpu) {
    int n = m.nrDomains(cpu);
    for (int l = 0; l < n; l++) {
      if (m.domain(cpu, l).asymCapacity()) {
        return m.domain(cpu, l);
      }
    }
    return null;
  }

  private static boolean intersectsAllowed(SchedDomainView sd, TaskView p) {
    for (int c = sd.nextCpu(0); c >= 0; c = sd.nextCpu(c + 1)) {
      if (p.allowedOn(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean groupIntersectsAllowed(SchedDomainView sd, int g, TaskView p) {
    for (int c = sd.groupNextCpu(g, 0); c >= 0; c = sd.groupNextCpu(g, c + 1)) {
      if (p.allowedOn(c)) {
        return true;
      }
    }
    return false;
  }

}
