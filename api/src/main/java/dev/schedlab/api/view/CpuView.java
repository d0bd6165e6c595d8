package dev.schedlab.api.view;

/** Read-only view of one CPU (a hardware thread) and its place in the topology. */
public interface CpuView {
  /** Logical CPU number. */
  int id();

  /** Physical core id (SMT siblings share it). */
  int coreId();

  /** Last-level-cache domain id. */
  int llcId();

  /** Package (socket) id. */
  int packageId();

  /** NUMA node id. */
  int nodeId();

  /** Its runqueue. */
  RqView rq();

  /** {@code idle_cpu()}: curr is the idle task, nothing queued and no wakeup pending. */
  boolean isIdle();

  /** Whether {@code TIF_POLLING_NRFLAG} is set on the current task. */
  boolean polling();

  /** Whether {@code TIF_NEED_RESCHED} is set on the current task. */
  boolean needResched();

  /** Index into the idle-state table of the state the CPU sits in, or -1 when not in one. */
  int idleStateIndex();

  /** Whether the periodic tick is stopped (nohz). */
  boolean tickStopped();

  /** Whether this CPU is isolated (isolcpus / nohz_full). */
  boolean isolated();

  /**
   * {@code tick_nohz_idle_got_tick()}: whether a tick was handled while this CPU was in its idle
   * loop since the governor last reflected (the engine clears it after each reflect).
   */
  default boolean idleGotTick() {
    return false;
  }

  /**
   * {@code arch_scale_cpu_capacity()}: the CPU's compute capacity at its highest frequency, 1024
   * for the machine's biggest CPU. Since API 1.2.0.
   */
  default long capacityOrig() {
    return 1024;
  }

  /**
   * {@code capacity_of()}: what is left of {@link #capacityOrig()} for fair tasks after RT,
   * deadline and interrupt time ({@code scale_rt_capacity()}), as the last load balance computed
   * it. Since API 1.2.0.
   */
  default long capacity() {
    return capacityOrig();
  }

  /**
   * {@code arch_scale_freq_capacity()}: the current over the highest frequency, scaled to 1024 (the
   * machine runs at a fixed frequency). Since API 1.2.0.
   */
  default long freqCapacity() {
    return 1024;
  }
}
