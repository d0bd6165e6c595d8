package dev.schedlab.engine.core;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.Policy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.IdleStateSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.machine.IdleState;
import dev.schedlab.engine.machine.IdleStateTables;
import dev.schedlab.engine.machine.Topology;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.Mitigations;
import dev.schedlab.engine.params.ParamTable;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.sim.Event;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * Builds a ready-to-run {@link Kernel} from a scenario: CPUs and their idle tasks, the extensions
 * chosen by name, and the workload's tasks with per-task random streams split from the seed in
 * creation order (so every configuration of the same scenario sees the same randomness).
 */
final class KernelBuilder {
  private KernelBuilder() {}

  static Kernel build(RunConfig sc, Extensions ext, TraceSink trace) {
    MachineSpec m = sc.machine();
    Topology topo = new Topology(m);
    List<IdleState> states = idleStates(m);
    ParamTable params =
        ParamTable.of(
            Mitigations.defaults(m.mitigations(), sc.kernel().params()),
            sc.kernel().params(),
            sc.kernel().features());
    PreemptionModel model = ext.preemptionModels().get(sc.kernel().preempt());
    if (model == null) {
      throw new IllegalArgumentException(
          "kernel.preempt: unknown preemption model '"
              + sc.kernel().preempt()
              + "'; available: "
              + new TreeSet<>(ext.preemptionModels().keySet()));
    }
    IdlePolicy governor = ext.idlePolicies().get(m.idleGovernor());
    if (governor == null) {
      throw new IllegalArgumentException(
          "machine.idle_governor: unknown idle policy '"
              + m.idleGovernor()
              + "'; available: "
              + new TreeSet<>(ext.idlePolicies().keySet()));
    }
    BitSet isolated = CpuList.parse(m.isolatedCpus(), topo.nrCpus());
    BitSet housekeeping = new BitSet();
    housekeeping.set(0, topo.nrCpus());
    housekeeping.andNot(isolated);
    if (housekeeping.isEmpty()) {
      throw new IllegalArgumentException(
          "machine.isolated_cpus: at least one housekeeping CPU must remain");
    }
    Cpu[] cpus = new Cpu[topo.nrCpus()];
    for (int i = 0; i < cpus.length; i++) {
      cpus[i] =
          new Cpu(
              i,
              topo.core(i),
              topo.llc(i),
              topo.pkg(i),
              topo.node(i),
              isolated.get(i),
              new Event(EventLoop.EV_PHASE, i, null),
              new Event(EventLoop.EV_TICK, i, null),
              new Event(EventLoop.EV_IPI_RESCHED, i, null),
              new Event(EventLoop.EV_IPI_CALL, i, null));
    }
    for (Cpu c : cpus) {
      c.capacityOrig = m.capacityOf(c.id);
      c.capacity = c.capacityOrig;
      c.freqCapacity = 1024L * m.frequencyPct() / 100;
      c.speed = c.capacityOrig * c.freqCapacity / (1024.0 * 1024.0);
      c.rate = c.speed;
    }
    Kernel k =
        new Kernel(
            cpus,
            states,
            sc.kernel().hz(),
            m.virtualized(),
            sc.kernel().latencyLimitNs(),
            params,
            ext,
            model,
            governor,
            trace,
            housekeeping);
    DomainBuilder.build(cpus, housekeeping, params);
    for (Cpu c : cpus) {
      c.avgIdle = 2 * params.get(dev.schedlab.engine.params.Param.MIGRATION_COST);
      c.maxIdleBalanceCost = params.get(dev.schedlab.engine.params.Param.MIGRATION_COST);
    }
    k.metrics.capSamples(sc.workload().sampleCaps());
    SchedulingClass idleClass = lowest(ext.classes());
    for (Cpu c : cpus) {
      BitSet only = new BitSet();
      only.set(c.id);
      Task idle =
          new Task(
              -1 - c.id,
              "swapper/" + c.id,
              Policy.NORMAL,
              0,
              0,
              0,
              0,
              0,
              only,
              true,
              true,
              -1,
              new Op[0],
              new SplittableRandom(0));
      idle.sclass = idleClass;
      idle.classRank = idleClass.rank();
      idle.cpu = c.id;
      idle.onCpu = true;
      c.idle = idle;
      c.curr = idle;
      c.idleChanged();
    }
    // Task groups exist before the classes start (the fair class builds its group runqueues),
    // autogroups included, so every task's group is known first.
    k.cgroupSpecs = sc.kernel().cgroups();
    k.autogroup = sc.kernel().autogroup();
    k.taskGroups.addAll(TaskGroup.build(sc.kernel().cgroups(), sc.kernel().autogroup()));
    for (TaskSpec ts : sc.workload().tasks()) {
      for (int i = 0; i < ts.count(); i++) {
        String comm = ts.count() == 1 ? ts.name() : ts.name() + "/" + i;
        TaskGroup.groupOf(
            k.taskGroups,
            sc.kernel().cgroups(),
            sc.kernel().autogroup(),
            ts,
            comm,
            k.autogroupSessions);
      }
    }
    for (SchedulingClass cls : ext.classes()) {
      cls.init(k.services, k.services);
    }
    governor.init(k.services);
    k.liveTasks = sc.workload().tasks().isEmpty() ? -1 : 0;
    int[] kpid = {2};
    SchedulingClass fair = classFor(List.of(k.classes), Policy.NORMAL);
    k.deferred =
        new Deferred(
            k,
            (comm, allowed, code) -> {
              Op loop = new Op(code);
              Task t =
                  new Task(
                      kpid[0]++,
                      comm,
                      Policy.NORMAL,
                      0,
                      0,
                      0,
                      0,
                      0,
                      allowed,
                      true,
                      false,
                      -1,
                      new Op[] {loop},
                      new SplittableRandom(0));
              t.sclass = fair;
              t.classRank = fair.rank();
              t.cpu = allowed.nextSetBit(0);
              t.state = dev.schedlab.api.TaskState.INTERRUPTIBLE;
              t.workQueue = new java.util.ArrayDeque<>();
              t.sleepTimer = new HrTimer(k, t.cpu, null, t);
              return t;
            });
    boolean[] offloaded = new boolean[cpus.length];
    for (int c = 0; c < cpus.length; c++) {
      offloaded[c] = k.deferred.offloaded(c);
    }
    k.rcu = new Rcu(k, offloaded);
    if (sc.kernel().rt()
        && !model.honours(
            dev.schedlab.api.PreemptPoint.IRQ_EXIT_KERNEL, dev.schedlab.api.ReschedBit.NR)) {
      throw new IllegalArgumentException(
          "kernel.rt: PREEMPT_RT needs a preemptible kernel "
              + "(kernel.preempt full or lazy), got "
              + sc.kernel().preempt());
    }
    k.locks = new Locks(k, sc.workload().locks(), sc.kernel().rt());
    createTasks(k, sc);
    // Kernel-path variation streams: split after the tasks', so workload streams do not move.
    SplittableRandom pathRoot = new SplittableRandom(sc.seed() ^ 0x5DEECE66DL);
    for (Cpu c : cpus) {
      c.rng = pathRoot.split();
    }
    k.loop.host = new HostInterference(k, m.noise(), sc.seed());
    k.idleLoop.seedHostWakes(sc.seed());
    k.background = Background.of(k, sc.seed());
    for (Cpu c : cpus) {
      k.thisCpu = c.id;
      k.queue.schedule(c.tickEv, k.tickNs);
      k.idleLoop.doIdleTop(c);
    }
    k.loop.host.start();
    long watchdogNs = params.get(dev.schedlab.engine.params.Param.WATCHDOG_TIMEOUT);
    if (k.supervisor.hasPlugins() && watchdogNs > 0) {
      k.loop.watchdog = new Watchdog(k, watchdogNs);
      k.loop.watchdog.start();
    }
    return k;
  }

  /** The machine's idle-state table: a named one, or a machine file's own. */
  private static List<IdleState> idleStates(MachineSpec m) {
    if (!m.idleStates().equals(MachineSpec.CUSTOM_IDLE_TABLE)) {
      return IdleStateTables.table(m.idleStates(), m.disabledStates());
    }
    List<IdleState> own = new java.util.ArrayList<>();
    for (IdleStateSpec s : m.customIdleStates()) {
      own.add(
          new IdleState(
              s.name(),
              s.exitLatencyNs(),
              s.targetResidencyNs(),
              s.polling(),
              true,
              s.polling() && s.exitLatencyNs() == 0,
              s.irqEnable()));
    }
    return IdleStateTables.custom(own, m.disabledStates());
  }

  private static SchedulingClass lowest(List<SchedulingClass> classes) {
    return classes.get(classes.size() - 1);
  }

  private static void createTasks(Kernel k, RunConfig sc) {
    SplittableRandom root = new SplittableRandom(sc.seed());
    k.taskFactory = new TaskFactory(k);
    for (TaskSpec ts : sc.workload().tasks()) {
      k.taskFactory.createGroup(ts, root);
    }
    k.taskFactory.tasksCreated();
  }

  /**
   * The class for {@code policy}: the highest-ranked class that handles it, except that an EXT task
   * goes to an extension class (ranked between fair and idle) when one is loaded, as with
   * sched_ext.
   */
  static SchedulingClass classFor(List<SchedulingClass> classes, Policy policy) {
    if (policy == Policy.EXT) {
      for (SchedulingClass c : classes) {
        if (c.handles(policy)
            && c.rank() < SchedulingClass.RANK_FAIR
            && c.rank() > SchedulingClass.RANK_IDLE) {
          return c;
        }
      }
    }
    for (SchedulingClass c : classes) {
      if (c.handles(policy)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no scheduling class handles policy " + policy);
  }
}
