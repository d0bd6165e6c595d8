package dev.schedlab.api.view;

import java.util.List;

/** Read-only view of the simulated machine. */
public interface MachineView {
  /** Number of CPUs (hardware threads). */
  int nrCpus();

  /** CPU {@code id}. */
  CpuView cpu(int id);

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
   * How many CPUs of {@code cpu}'s last-level cache are running their idle task: the hint a
   * wakeup scan uses (like {@code sd_llc_shared}) to skip scanning a fully busy LLC.
   */
  int llcIdleCpus(int cpu);

  /**
   * A value of the run's parameter table by key ({@code haltpoll.guest_halt_poll_ns}), as
   * {@code SchedServices.param}: module parameters and tunables a policy reads.
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
}
