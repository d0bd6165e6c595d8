package dev.schedlab.engine.core;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.ParamTable;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginSupervisor;
import dev.schedlab.engine.sim.EventQueue;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The simulated kernel: owns the clock, the future-event list, the CPUs and tasks, and the
 * mechanism classes ({@link Scheduler}, {@link Interrupts}, {@link IdleLoop}, {@link TaskExec}).
 * The {@link EventLoop} runs the events, the {@link CostModel} prices the paths, and classes and
 * plugins see the kernel through {@link KernelServices}. Its fields are the kernel's shared state,
 * used directly by the mechanism classes (see the package documentation). Single-threaded and
 * deterministic: ties in time break by scheduling order.
 */
public final class Kernel {
  /** What classes and plugins are handed: the services and views of the API. */
  final KernelServices services = new KernelServices(this);

  /** Runs the future-event list and keeps the run's digest. */
  final EventLoop loop = new EventLoop(this);

  final EventQueue queue = new EventQueue();
  long now;

  /** The CPU whose code is running in the current event (smp_processor_id()). */
  int thisCpu;

  /** CPU time by phase (index = phase), summed over the CPUs, of the phases ended so far. */
  final long[] phaseNs = new long[Cpu.PHASE_NAMES.length];

  /** CPU time accumulated by the path being executed, charged by the caller. */
  long pathCost;

  /**
   * How long after now the path being executed writes another CPU's NEED_RESCHED flag and sends its
   * IPI: the part of its cost spent before them (charged as one cost with the rest, so otherwise
   * not seen). Set by a remote activation ({@link Scheduler#wakeUp}).
   */
  long signalDelay;

  final Cpu[] cpus;
  final List<IdleState> idleStates;
  final int hz;
  final long tickNs;
  final boolean virtualized;

  /** Path costs and tunables from the parameter table. */
  final CostModel costs;

  final Extensions ext;
  final PreemptionModel model;

  /** The classes in pick order; an ejected plugin's leave it ({@link PluginEjector}). */
  SchedulingClass[] classes;

  /** The supervision of this run's plugins, and the checks at their boundary. */
  final PluginSupervisor supervisor;

  final PluginChecks checks;

  /** The fair class's PELT (the load balancer's source), or null when it keeps none. */
  final dev.schedlab.api.@Nullable LoadTracking fairLoad;

  final TraceSink trace;
  final Metrics metrics = new Metrics();

  final BitSet housekeeping;

  /** SMT throughput sharing, or null when every core has one thread. */
  final @Nullable SmtSharing smt;

  final Scheduler sched;
  final LoadBalancer balancer;
  final Nohz nohz;
  final MmCid mmCid;

  @SuppressWarnings("NullAway.Init") // set by the builder
  Deferred deferred;

  @SuppressWarnings("NullAway.Init") // set by the builder, after deferred
  Rcu rcu;

  /** The host's own background kernel activity; null when off (bg.timer_rate_milli 0). */
  @Nullable Background background;

  /** The declared kernel locks (set by the builder before the programs are compiled). */
  @SuppressWarnings("NullAway.Init")
  Locks locks;

  /** Creates the workload's tasks, at start and on fork steps. */
  @SuppressWarnings("NullAway.Init") // set by the builder
  TaskFactory taskFactory;

  final Interrupts irqs;
  final IdleLoop idleLoop;
  final TaskExec exec;

  /** {@code sd_llc_shared} of each LLC. */
  final LlcShared llcShared;

  /** {@link Cpu#isIdle()} of every CPU, a {@link CpuMasks} mask (see {@link Cpu#idleMap}). */
  final long[] idleCpus;

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

  Kernel(
      Cpu[] cpus,
      List<IdleState> idleStates,
      int hz,
      boolean virtualized,
      long latencyLimitNs,
      ParamTable params,
      Extensions ext,
      PreemptionModel model,
      IdlePolicy governor,
      TraceSink trace,
      BitSet housekeeping) {
    this.cpus = cpus;
    this.idleStates = idleStates;
    this.hz = hz;
    this.tickNs = 1_000_000_000L / hz;
    this.virtualized = virtualized;
    this.costs = new CostModel(params, virtualized);
    this.ext = ext;
    this.model = model;
    this.classes = ext.classes().toArray(new SchedulingClass[0]);
    this.supervisor = ext.supervisor();
    this.supervisor.attach(new PluginEjector(this));
    this.checks = new PluginChecks(this);
    this.trace = trace;
    this.housekeeping = housekeeping;
    this.smt = SmtSharing.forMachine(this, cpus, params);
    this.llcShared = new LlcShared(cpus, housekeeping, smt != null);
    this.idleCpus = CpuMasks.ofSize(cpus.length);
    for (Cpu c : cpus) {
      c.idleMap = idleCpus;
      c.idleChanged();
    }
    boolean asym = false;
    for (Cpu c : cpus) {
      asym |= c.capacityOrig != cpus[0].capacityOrig;
    }
    this.asymCapacity = asym;
    dev.schedlab.api.LoadTracking fairLoad = null;
    for (SchedulingClass c : classes) {
      if (fairLoad == null
          && c.handles(dev.schedlab.api.Policy.NORMAL)
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
    this.irqs = new Interrupts(this);
    this.idleLoop = new IdleLoop(this, governor, latencyLimitNs);
    this.exec = new TaskExec(this);
  }

  /** Runs events until {@code endNs}; returns the number processed. */
  long run(long endNs) {
    return loop.run(endNs);
  }

  /** Hex digest of the event stream so far. */
  String digest() {
    return loop.digest();
  }

  long events() {
    return loop.events();
  }

  /**
   * Enters {@code phase} on {@code cpu} for {@code duration} ns (negative: until something
   * happens). Kernel-path phases (all but task ops, whose durations the workload draws, and spin
   * deadlines) vary by {@code cost.jitter_pct}.
   *
   * <p>Runs at almost every event, often as the first touch of a CPU no recent event touched (an
   * interrupt's entry), so what it reads is kept to that CPU's own fields, its phase event and cost
   * stream: the time by phase is summed machine-wide, and only the IRQ time kept per CPU.
   */
  void setPhase(Cpu cpu, int phase, long duration) {
    long spent = now - cpu.accountedSince;
    phaseNs[cpu.accountedPhase] += spent;
    if (cpu.accountedPhase == Cpu.P_IRQ_ENTRY || cpu.accountedPhase == Cpu.P_IRQ_BODY) {
      cpu.irqNs += spent;
    }
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
      queue.schedule(
          cpu.phaseEv, now + (cpu.rate == 1.0 ? duration : (long) Math.ceil(duration / cpu.rate)));
    } else if (phase == Cpu.P_SPIN || phase == Cpu.P_IDLE_STATE) {
      // A spin or poll limit is a deadline on local_clock(), not a path cost: no cost variation.
      queue.schedule(cpu.phaseEv, now + duration);
    } else {
      queue.schedule(cpu.phaseEv, now + costs.jitter(cpu, duration));
    }
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

  /** Current {@code jiffies}. */
  long jiffies() {
    return now / tickNs;
  }

  /** Engine metrics plus per-CPU figures, sorted by name. */
  Map<String, Object> metricsSnapshot() {
    Map<String, Object> m = new TreeMap<>(metrics.snapshot());
    long idleTotal = 0;
    Map<String, Object> perCpu = new TreeMap<>();
    long[] byPhase = phaseNs.clone();
    for (Cpu c : cpus) {
      byPhase[c.accountedPhase] += now - c.accountedSince;
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
