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
}
