package dev.schedlab.engine.core;

import dev.schedlab.api.CallFunction;
import dev.schedlab.api.Counter;
import dev.schedlab.api.DeferKind;
import dev.schedlab.api.DeferredWork;
import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.IpiPath;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.TimerCallback;
import dev.schedlab.api.TimerHandle;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.IdleStateView;
import dev.schedlab.api.view.MachineView;
import dev.schedlab.api.view.TaskView;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.params.ParamTable;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.sim.Event;
import dev.schedlab.engine.sim.EventQueue;
import dev.schedlab.engine.plugin.PluginSupervisor;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated kernel: owns the clock, the future-event list, the CPUs and tasks, and dispatches
 * events to the mechanism classes ({@link Scheduler}, {@link Interrupts}, {@link IdleLoop},
 * {@link TaskExec}). It is also the {@link SchedServices} and {@link MachineView} handed to classes
 * and plugins. Single-threaded and deterministic: ties in time break by scheduling order.
 */
public final class Kernel implements SchedServices, MachineView {
  static final int EV_PHASE = 1;
  static final int EV_TICK = 2;
  static final int EV_HRTIMER = 3;
  static final int EV_IPI_RESCHED = 4;
  static final int EV_IPI_CALL = 5;
  static final int EV_TASK_START = 6;
  static final int EV_WORK_DUE = 7;
  static final int EV_NOISE = 8;
  /** The plugin watchdog: outside the model, not in the digest. */
  static final int EV_WATCHDOG = 9;

  final EventQueue queue = new EventQueue();
  long now;
  /** The CPU whose code is running in the current event (smp_processor_id()). */
  int thisCpu;
  /** CPU time accumulated by the path being executed, charged by the caller. */
  long pathCost;

  final Cpu[] cpus;
  final List<IdleState> idleStates;
  final int hz;
  final long tickNs;
  final boolean virtualized;
  final long latencyLimitNs;
  final ParamTable params;
  final Extensions ext;
  final PreemptionModel model;
  final IdlePolicy governor;
  /** The classes in pick order; an ejected plugin's leave it ({@link PluginEjector}). */
  SchedulingClass[] classes;
  /** The supervision of this run's plugins, and the checks at their boundary. */
  final PluginSupervisor supervisor;
  final PluginChecks checks;
  /** The plugin watchdog, or null (no plugins, or watchdog.timeout 0). */
  Watchdog watchdog;
  /** The fair class's PELT (the load balancer's source), or null when it keeps none. */
  final dev.schedlab.api.LoadTracking fairLoad;
  final TraceSink trace;
  final Metrics metrics = new Metrics();
  /** Softirqs run, as /proc/softirqs counts them. */
  private final MetricCounter softirqSched = metrics.counter("softirq.sched");
  private final MetricCounter softirqRcu = metrics.counter("softirq.rcu");

  final BitSet housekeeping;
  /** SMT throughput sharing, or null when every core has one thread. */
  final SmtSharing smt;
  final Scheduler sched;
  final LoadBalancer balancer;
  final Nohz nohz;
  final MmCid mmCid;
  /** The H5 tick stage: a plugin's, else mainline's task_mm_cid_work scheduling. */
  final dev.schedlab.api.hook.TickHook tickStage;
  Deferred deferred;
  /** The declared kernel locks (set by the builder before the programs are compiled). */
  Locks locks;
  /** Creates the workload's tasks, at start and on fork steps. */
  TaskFactory taskFactory;
  final Interrupts irqs;
  final IdleLoop idleLoop;
  /** The host's halt polling of this guest's vCPUs; null on bare metal. */
  final HaltPolling haltPolling;
  final TaskExec exec;
  /** Steal and firmware stalls, and a guest's timer exits; set by the builder. */
  HostInterference host;

  /** CPUs of each LLC, ascending, and how many of them run their idle task. */
  final int[][] llcCpus;
  final int[] llcIdle;
  /** {@code sd_llc_shared} of each LLC. */
  final LlcShared llcShared;
  /** {@code sched_asym_cpucap_active()}. */
  final boolean asymCapacity;
  /** Task groups (root first); only the root without cgroups or autogroup. */
  final java.util.List<TaskGroup> taskGroups = new java.util.ArrayList<>();
  /** The scenario's cgroups and autogroup setting, and the autogroup of each session. */
  java.util.List<dev.schedlab.engine.config.CgroupSpec> cgroupSpecs = java.util.List.of();
  boolean autogroup;
  final java.util.Map<String, Integer> autogroupSessions = new java.util.HashMap<>();
  /** The workload's tasks in creation order. */
  final java.util.ArrayList<Task> tasks = new java.util.ArrayList<>();
  /** Workload tasks not yet exited; a run with tasks ends early when it reaches zero. */
  int liveTasks = -1;
  private final long jitterPct;
  private long digest = 0x9E3779B97F4A7C15L;
  private long events;

  Kernel(Cpu[] cpus, List<IdleState> idleStates, int hz, boolean virtualized, long latencyLimitNs,
      ParamTable params, Extensions ext, PreemptionModel model, IdlePolicy governor,
      TraceSink trace, BitSet housekeeping) {
    this.cpus = cpus;
    this.idleStates = idleStates;
    this.hz = hz;
    this.tickNs = 1_000_000_000L / hz;
    this.virtualized = virtualized;
    this.latencyLimitNs = latencyLimitNs;
    this.params = params;
    this.ext = ext;
    this.model = model;
    this.governor = governor;
    this.classes = ext.classes().toArray(new SchedulingClass[0]);
    this.supervisor = ext.supervisor();
    this.supervisor.attach(new PluginEjector(this));
    this.checks = new PluginChecks(this);
    this.trace = trace;
    this.jitterPct = params.get(Param.COST_JITTER);
    this.housekeeping = housekeeping;
    this.smt = SmtSharing.forMachine(this, cpus, params);
    this.llcShared = new LlcShared(cpus, housekeeping, smt != null);
    int llcs = 0;
    for (Cpu c : cpus) {
      llcs = Math.max(llcs, c.llcId + 1);
    }
    this.llcIdle = new int[llcs];
    this.llcCpus = new int[llcs][];
    for (int l = 0; l < llcs; l++) {
      final int id = l;
      llcCpus[l] = java.util.Arrays.stream(cpus).filter(c -> c.llcId == id).mapToInt(c -> c.id).toArray();
      llcIdle[l] = llcCpus[l].length;
    }
    boolean asym = false;
    for (Cpu c : cpus) {
      asym |= c.capacityOrig != cpus[0].capacityOrig;
    }
    this.asymCapacity = asym;
    dev.schedlab.api.LoadTracking fairLoad = null;
    for (SchedulingClass c : classes) {
      if (fairLoad == null && c.handles(dev.schedlab.api.Policy.NORMAL)
          && c instanceof dev.schedlab.api.LoadTracking lt) {
        fairLoad = lt;
      }
    }
    this.fairLoad = fairLoad;
    for (Cpu c : cpus) {
      c.fairLoad = fairLoad;
    }
    this.sched = new Scheduler(this);
    this.balancer = new LoadBalancer(this);
    this.nohz = new Nohz(this, housekeeping);
    this.mmCid = new MmCid(this);
    this.tickStage = ext.tick() != null ? ext.tick() : (c, t, s) -> mmCid.tick((Cpu) c, (Task) t);
    this.irqs = new Interrupts(this);
    this.idleLoop = new IdleLoop(this);
    this.haltPolling = virtualized ? new HaltPolling(this) : null; // a host's, so guests only
    this.exec = new TaskExec(this);
  }

  long p(Param param) {
    return params.get(param);
  }

  /** Runs events until {@code endNs}; returns the number processed. */
  long run(long endNs) {
    Event e;
    while ((e = queue.pollUntil(endNs)) != null) {
      now = e.time();
      if (e.type == EV_WATCHDOG) {
        watchdog.run(); // outside the model: neither in the digest nor in the event count
        continue;
      }
      events++;
      digest = mix(digest, now, e.type, e.cpu);
      dispatch(e);
      if (liveTasks == 0) {
        // Every task has exited: nothing but idle ticks can follow.
        return events;
      }
    }
    now = endNs;
    return events;
  }

  private void dispatch(Event e) {
    switch (e.type) {
      case EV_PHASE:
        thisCpu = e.cpu;
        phaseDone(cpus[e.cpu]);
        break;
      case EV_TICK:
        thisCpu = e.cpu;
        if (host.defer(cpus[e.cpu], e, true)) {
          break;
        }
        cpus[e.cpu].tickDue = true;
        irqs.raise(cpus[e.cpu], Cpu.IRQ_TIMER);
        break;
      case EV_HRTIMER:
        HrTimer t = (HrTimer) e.owner;
        thisCpu = t.cpu;
        Cpu c = cpus[t.cpu];
        if (host.defer(c, e, true)) {
          break;
        }
        c.timers.remove(t);
        c.expired.add(t);
        irqs.raise(c, Cpu.IRQ_TIMER);
        break;
      case EV_IPI_RESCHED:
        thisCpu = e.cpu;
        if (!host.defer(cpus[e.cpu], e, false)) {
          irqs.raise(cpus[e.cpu], Cpu.IRQ_RESCHED);
        }
        break;
      case EV_IPI_CALL:
        thisCpu = e.cpu;
        if (!host.defer(cpus[e.cpu], e, false)) {
          irqs.raise(cpus[e.cpu], Cpu.IRQ_CALL);
        }
        break;
      case EV_NOISE:
        thisCpu = e.cpu;
        host.noise(cpus[e.cpu]);
        break;
      case EV_WORK_DUE:
        WorkItem w = (WorkItem) e.owner;
        thisCpu = w.cpu;
        deferred.due(w);
        break;
      case EV_TASK_START:
        Task task = (Task) e.owner;
        thisCpu = task.cpu;
        sched.wakeUpNewTask(task);
        break;
      default:
        throw new IllegalStateException("unknown event type " + e.type);
    }
  }

  private void phaseDone(Cpu cpu) {
    switch (cpu.phase) {
      case Cpu.P_TASK:
        exec.opDone(cpu);
        break;
      case Cpu.P_SCHED:
        sched.finish(cpu);
        break;
      case Cpu.P_IDLE_ENTER:
        idleLoop.enterState(cpu);
        break;
      case Cpu.P_IDLE_STATE:
        idleLoop.pollTimeout(cpu);
        break;
      case Cpu.P_IDLE_WAKE:
        idleLoop.woke(cpu);
        break;
      case Cpu.P_IDLE_EXIT:
        idleLoop.loopExited(cpu);
        break;
      case Cpu.P_IRQ_ENTRY:
        irqs.runHandlers(cpu);
        break;
      case Cpu.P_IRQ_BODY:
        irqs.exit(cpu);
        break;
      case Cpu.P_SPIN:
        sched.spinTimeout(cpu);
        break;
      default:
        throw new IllegalStateException("cpu " + cpu.id + " in unknown phase " + cpu.phase);
    }
  }

  /**
   * Enters {@code phase} on {@code cpu} for {@code duration} ns (negative: until something
   * happens). Kernel-path phases (all but task ops, whose durations the workload draws, and spin
   * deadlines) vary by {@code cost.jitter_pct}.
   */
  void setPhase(Cpu cpu, int phase, long duration) {
    cpu.phaseNs[cpu.accountedPhase] += now - cpu.accountedSince;
    cpu.accountedPhase = phase;
    cpu.accountedSince = now;
    cpu.phase = phase;
    cpu.phaseStart = now;
    if (smt != null) {
      smt.loadChanged(cpu);
    }
    cpu.opScaled = phase == Cpu.P_TASK && duration >= 0;
    if (duration < 0) {
      queue.cancel(cpu.phaseEv);
    } else if (cpu.opScaled) {
      cpu.opWork = duration;
      queue.schedule(cpu.phaseEv, now + (cpu.rate == 1.0 ? duration : (long) Math.ceil(duration / cpu.rate)));
    } else if (phase == Cpu.P_SPIN || phase == Cpu.P_IDLE_STATE) {
      // A spin or poll limit is a deadline on local_clock(), not a path cost: no cost variation.
      queue.schedule(cpu.phaseEv, now + duration);
    } else {
      queue.schedule(cpu.phaseEv, now + jitter(cpu, duration));
    }
  }

  /**
   * Extra cost of reprogramming {@code cpu}'s clockevent for a timer due at {@code expiresNs}: a
   * VM exit in a guest when the timer becomes the CPU's earliest event, else nothing (on bare
   * metal the MSR write is part of the path costs).
   */
  long clockeventReprogramCost(Cpu cpu, long expiresNs) {
    if (!virtualized) {
      return 0;
    }
    long tick = cpu.tickEv.scheduled() ? cpu.tickEv.time() : Long.MAX_VALUE;
    return expiresNs < Math.min(tick, cpu.nextTimerNs()) ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /** A guest's clockevent reprogram that always happens (hrtimer interrupt exit). */
  long clockeventReprogramCost() {
    return virtualized ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /** Cancelling {@code ev} (still scheduled) on {@code cpu}: a VM exit if it was the next event. */
  long clockeventCancelCost(Cpu cpu, Event ev) {
    boolean wasNext = virtualized && ev.scheduled() && ev.time() < cpu.nextTimerNs();
    return wasNext ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /** The first tick boundary ({@code jiffies} edge) after now. */
  long nextTickBoundary() {
    return (now / tickNs + 1) * tickNs;
  }

  /** Full-speed work left in {@code cpu}'s running op (its remaining time when not compute). */
  long remainingWork(Cpu cpu) {
    if (!cpu.phaseEv.scheduled()) {
      return -1;
    }
    if (!cpu.opScaled) {
      return cpu.phaseEv.time() - now;
    }
    return Math.max(0, (long) Math.ceil(cpu.opWork - (now - cpu.phaseStart) * cpu.rate));
  }

  /** {@code value} varied uniformly by +-{@code cost.jitter_pct} percent from {@code cpu}'s stream. */
  long jitter(Cpu cpu, long value) {
    long span = value * jitterPct / 100;
    return span <= 0 ? value : value - span + cpu.rng.nextLong(2 * span + 1);
  }

  /** {@code hrtimer_start_range_ns()}: soft expiry {@code expiresNs}, hard one {@code slackNs} later. */
  void armTimer(HrTimer t, long expiresNs, long slackNs) {
    Cpu c = cpus[t.cpu];
    if (!t.event.scheduled()) {
      c.timers.add(t);
    }
    t.softExpiry = expiresNs;
    queue.schedule(t.event, Math.max(expiresNs + slackNs, now));
  }

  void cancelTimer(HrTimer t) {
    if (t.event.scheduled()) {
      cpus[t.cpu].timers.remove(t);
      queue.cancel(t.event);
    }
  }

  /** Current {@code jiffies}. */
  @Override
  public long jiffies() {
    return now / tickNs;
  }

  static long mix(long h, long a, long b, long c) {
    h ^= a * 0xff51afd7ed558ccdL;
    h = Long.rotateLeft(h, 29) * 0xc4ceb9fe1a85ec53L;
    h ^= (b << 32) ^ (c & 0xffffffffL);
    h = Long.rotateLeft(h, 31) * 0x9E3779B97F4A7C15L;
    return h;
  }

  /** Hex digest of the event stream so far. */
  String digest() {
    long h = digest;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return String.format("%016x", h);
  }

  long events() {
    return events;
  }

  // ---------------- SchedServices ----------------
  @Override
  public long now() {
    return now;
  }

  @Override
  public MachineView machine() {
    return this;
  }

  @Override
  public void resched(int cpu, ReschedReason reason) {
    sched.resched(cpus[cpu], reason);
  }

  @Override
  public void setResched(int cpu, ReschedBit bit) {
    sched.setResched(cpus[cpu], bit);
  }

  @Override
  public void callFunction(int target, long costNs, CallFunction fn) {
    irqs.callFunction(cpus[thisCpu], cpus[target], costNs, fn, null, IpiPath.CALL_FUNCTION);
  }

  @Override
  public void defer(DeferKind kind, TaskView owner, int cpu, long costNs, long delayNs,
      DeferredWork work) {
    if (kind != DeferKind.TASK_WORK) {
      deferred.submit(kind, cpu, costNs, delayNs, work);
      return;
    }
    Task t = (Task) owner;
    t.addTaskWork((task, c) -> {
      work.run(c);
      return costNs;
    });
  }

  @Override
  public long param(String key) {
    return params.get(key);
  }

  @Override
  public dev.schedlab.api.hook.MmCidControl mmCid() {
    return mmCid;
  }

  @Override
  public Counter counter(String name) {
    return metrics.counter(name);
  }

  @Override
  public TimerHandle newTimer(int cpu, TimerCallback callback) {
    return new HrTimer(this, cpu, callback, null);
  }

  @Override
  public void completeDelayedDequeue(TaskView p) {
    Task t = (Task) p;
    if (!t.onRq || !t.delayed) {
      throw new IllegalStateException("completeDelayedDequeue of a task not "
          + (t.onRq ? "delayed" : "queued") + ": " + t);
    }
    t.onRq = false;
    sched.removeQueued(cpus[t.cpu], t); // still delayed: no longer counted as runnable
    t.delayed = false;
  }

  /** Runs the softirqs raised on {@code cpu} (SCHED, RCU); their cost goes to {@link #pathCost}. */
  void runSoftirqs(Cpu cpu) {
    if (cpu.schedSoftirq) {
      cpu.schedSoftirq = false;
      softirqSched.value++;
      balancer.softirq(cpu);
    }
    if (!cpu.rcuPending.isEmpty()) {
      softirqRcu.value++;
      deferred.rcuSoftirq(cpu);
    }
  }

  // ---------------- MachineView ----------------
  @Override
  public int nrCpus() {
    return cpus.length;
  }

  @Override
  public CpuView cpu(int id) {
    return cpus[id];
  }

  @Override
  public int llcWeight(int cpu) {
    return llcCpus[cpus[cpu].llcId].length;
  }

  @Override
  public int llcCpu(int cpu, int i) {
    return llcCpus[cpus[cpu].llcId][i];
  }

  @Override
  public int llcIdleCpus(int cpu) {
    return llcIdle[cpus[cpu].llcId];
  }

  @Override
  public java.util.List<? extends dev.schedlab.api.view.TaskGroupView> taskGroups() {
    return taskGroups.size() <= 1 ? java.util.List.of() : taskGroups;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <H> H hook(Class<H> type) {
    if (type == dev.schedlab.api.hook.PeltHook.class) {
      return (H) ext.pelt();
    }
    if (type == dev.schedlab.api.hook.SelectTaskRqHook.class) {
      return (H) ext.selectTaskRq();
    }
    if (type == dev.schedlab.api.hook.LoadBalanceHook.class) {
      return (H) ext.loadBalance();
    }
    return null;
  }

  @Override
  public void changeNrRunning(int cpu, int delta) {
    Cpu c = cpus[cpu];
    int before = c.nrRunning;
    c.nrRunning += delta;
    balancer.nrRunningChanged(c, before);
  }

  @Override
  public int nrDomains(int cpu) {
    return cpus[cpu].domains.length;
  }

  @Override
  public dev.schedlab.api.view.SchedDomainView domain(int cpu, int level) {
    return cpus[cpu].domains[level];
  }

  @Override
  public int smtWeight(int cpu) {
    return cpus[cpu].siblings.length;
  }

  @Override
  public int smtSibling(int cpu, int i) {
    return cpus[cpu].siblings[i].id;
  }

  @Override
  public boolean smtActive() {
    return smt != null;
  }

  @Override
  public boolean asymCapacity() {
    return asymCapacity;
  }

  @Override
  public boolean llcHasIdleCores(int cpu) {
    return llcShared.hasIdleCores(cpus[cpu]);
  }

  @Override
  public int llcNrIdleScan(int cpu) {
    return llcShared.nrIdleScan[cpus[cpu].llcId];
  }

  @Override
  public void addPathCost(long ns) {
    pathCost += ns;
  }

  @Override
  public void migrateQueued(TaskView p, int dstCpu) {
    Task t = (Task) p;
    if (!t.onRq || t.onCpu || t.delayed || !t.allowed.get(dstCpu)) {
      throw new IllegalStateException("migrateQueued: " + t + " is not a queued, waiting task"
          + " allowed on cpu " + dstCpu);
    }
    pathCost += p(Param.LB_PER_TASK);
    sched.moveQueued(t, cpus[t.cpu], cpus[dstCpu]);
  }

  @Override
  public void setLlcHasIdleCores(int cpu, boolean value) {
    llcShared.hasIdleCores[cpus[cpu].llcId] = value;
  }

  /** Queues {@code w} on kthread {@code t} and wakes it if it sleeps. */
  void queueKthreadWork(Task t, WorkItem w) {
    t.workQueue.add(w);
    if (t.state != dev.schedlab.api.TaskState.RUNNING) {
      sched.wakeUp(t, 0);
    }
  }


  @Override
  public int hz() {
    return hz;
  }

  @Override
  public long tickNs() {
    return tickNs;
  }

  @Override
  public List<? extends IdleStateView> idleStates() {
    return idleStates;
  }

  @Override
  public boolean virtualized() {
    return virtualized;
  }

  /** Engine metrics plus per-CPU figures, sorted by name. */
  Map<String, Object> metricsSnapshot() {
    Map<String, Object> m = new TreeMap<>(metrics.snapshot());
    long idleTotal = 0;
    Map<String, Object> perCpu = new TreeMap<>();
    long[] byPhase = new long[Cpu.PHASE_NAMES.length];
    for (Cpu c : cpus) {
      for (int p = 0; p < byPhase.length; p++) {
        byPhase[p] += c.phaseNs[p] + (p == c.accountedPhase ? now - c.accountedSince : 0);
      }
      idleLoop.closeResidency(c);
      Map<String, Object> one = new TreeMap<>();
      one.put("idle_ns", c.idleNs);
      one.put("ticks", c.ticks);
      // Residency of a state still open at the end: a trace shows its entry but no exit.
      one.put("idle_open_ns", c.idleStateIdx >= 0 ? now - c.idleEnteredAt : 0L);
      one.put("busy_ns", now - c.idleNs);
      perCpu.put(String.format("cpu%03d", c.id), one);
      idleTotal += c.idleNs;
    }
    m.put("per_cpu", perCpu);
    for (int p = 1; p < Cpu.P_IDLE_TOP; p++) { // P_IDLE_TOP is only ever a saved phase
      // CPU time by what the CPU was doing, summed over CPUs (task = user and kernel task code).
      m.put("cpu_ns." + Cpu.PHASE_NAMES[p], byPhase[p]);
    }
    m.put("idle_ns_total", idleTotal);
    Map<String, Object> lockStat = locks == null ? Map.of() : locks.lockStat();
    if (!lockStat.isEmpty()) {
      m.put("lock_stat", lockStat);
    }
    return m;
  }
}
