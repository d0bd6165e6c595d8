package dev.schedlab.api.view;

import java.util.List;

/** Read-only view of the simulated machine. */
public interface MachineView {
  /** Number of CPUs (hardware threads). */
  int nrCpus();

  /** CPU {@code id}. */
  CpuView cpu(int id);

  /**
   * {@code cpu(cpu).isIdle()}, read from the machine's packed idle state (like the kernel's
   * idle-CPU masks) so a wakeup scan over many CPUs does not touch each CPU's state. Since API
   * 1.2.0.
   */
  default boolean cpuIdle(int cpu) {
    return cpu(cpu).isIdle();
  }

  /**
   * The lowest CPU of {@code sd}'s span at or above {@code from} for which {@link #cpuIdle} holds,
   * or -1: {@code cpumask_next_and()} of the span and the idle mask, so a wakeup scan of a busy LLC
   * finds its first idle CPU a word of 64 CPUs at a time. Since API 1.2.0.
   */
  default int nextIdleCpu(SchedDomainView sd, int from) {
    for (int c = sd.nextCpu(from); c >= 0; c = sd.nextCpu(c + 1)) {
      if (cpuIdle(c)) {
        return c;
      }
    }
    return -1;
  }

  /** Tick frequency, Hz. */
  int hz();

  /** Length of one tick, ns ({@code TICK_NSEC}). */
  long tickNs();

  /** The cpuidle state table of every CPU (index 0 is the shallowest). */
  List<? extends IdleStateView> idleStates();

  /** Whether the machine is a virtual machine guest. */
  boolean virtualized();

  /** Number of CPUs sharing {@code cpu}'s last-level cache ({@code sd_llc_size}). */
  int llcWeight(int cpu);

  /** The {@code i}-th CPU (ascending, 0-based) of {@code cpu}'s last-level cache. */
  int llcCpu(int cpu, int i);

  /**
   * How many CPUs of {@code cpu}'s last-level cache are running their idle task: the hint a wakeup
   * scan uses (like {@code sd_llc_shared}) to skip scanning a fully busy LLC.
   */
  int llcIdleCpus(int cpu);

  /**
   * A value of the run's parameter table by key ({@code haltpoll.guest_halt_poll_ns}), as {@code
   * SchedServices.param}: module parameters and tunables a policy reads.
   *
   * @throws IllegalArgumentException for an unknown key
   * @since 1.2.0
   */
  default long param(String key) {
    throw new IllegalArgumentException("this machine view has no parameter table: " + key);
  }

  /** Whether two CPUs share a last-level cache ({@code cpus_share_cache}). */
  default boolean sharesLlc(int a, int b) {
    return cpu(a).llcId() == cpu(b).llcId();
  }

  /**
   * The task groups, parents before children, the root (id 0) first; empty when the run has no
   * groups besides the root. Since API 1.2.0.
   */
  default java.util.List<? extends TaskGroupView> taskGroups() {
    return java.util.List.of();
  }

  /** Number of sched-domain levels of {@code cpu} (0 for an isolated CPU). Since API 1.2.0. */
  default int nrDomains(int cpu) {
    return 0;
  }

  /** {@code cpu}'s sched domain at {@code level}, 0 being the lowest. Since API 1.2.0. */
  default SchedDomainView domain(int cpu, int level) {
    throw new IndexOutOfBoundsException("no sched domains");
  }

  /**
   * Hardware threads of {@code cpu}'s core ({@code cpu_smt_mask}), itself included. Since API
   * 1.2.0.
   */
  default int smtWeight(int cpu) {
    return 1;
  }

  /** The {@code i}-th CPU (ascending) of {@code cpu}'s core. Since API 1.2.0. */
  default int smtSibling(int cpu, int i) {
    return cpu;
  }

  /** {@code sched_smt_active()}: some core has more than one thread. Since API 1.2.0. */
  default boolean smtActive() {
    return false;
  }

  /** {@code sched_asym_cpucap_active()}: CPUs differ in capacity. Since API 1.2.0. */
  default boolean asymCapacity() {
    return false;
  }

  /**
   * {@code sd_llc_shared->has_idle_cores} of {@code cpu}'s LLC: set when a CPU goes idle and its
   * whole core is idle, cleared by a wakeup scan that found no idle core. Since API 1.2.0.
   */
  default boolean llcHasIdleCores(int cpu) {
    return false;
  }

  /**
   * {@code sd_llc_shared->nr_idle_scan} of {@code cpu}'s LLC: how many CPUs SIS_UTIL lets a wakeup
   * scan, from the LLC's utilisation at its last load balance. Since API 1.2.0.
   */
  default int llcNrIdleScan(int cpu) {
    return llcWeight(cpu);
  }
}
