package dev.schedlab.engine.core;

import java.util.BitSet;

/**
 * One level of a CPU's sched-domain hierarchy and the balancing state fair.c keeps in it.
 *
 * <p>Models: {@code sd_init()}'s parameters (span weight, {@code imbalance_pct}, {@code
 * busy_factor}, the minimum and maximum balance intervals, whether the level shares the LLC,
 * SD_ASYM_CPUCAPACITY, and SD_BALANCE_FORK, SD_BALANCE_EXEC and SD_WAKE_AFFINE, which it clears on
 * a NUMA level farther than {@code node_reclaim_distance}), the groups of the level, and the
 * per-domain balancing state ({@code last_balance}, {@code balance_interval}, {@code
 * nr_balance_failed}, {@code max_newidle_lb_cost} and its decay).
 *
 * <p>Does not model: the domain flags no modelled path reads, and {@code sched_domain_shared} other
 * than the LLC's ({@link LlcShared}).
 *
 * <p>Kernel reference: {@code kernel/sched/topology.c} ({@code sd_init}), {@code
 * include/linux/sched/topology.h} ({@code struct sched_domain}).
 */
final class SchedDomain implements dev.schedlab.api.view.SchedDomainView {
  /** Level names as in /proc/schedstat. */
  final String name;

  final BitSet span;
  final int weight;

  /**
   * {@link #span} as a {@link CpuMasks} mask, for the hot walks over it; shared by the domains of
   * every CPU in the span, so a wakeup's span tests read few distinct lines.
   */
  final long[] spanMask;

  /** The groups of this level: the child level's spans (one CPU each at the lowest level). */
  final BitSet[] groups;

  /** By group: its mask, weight and capacity, shared with every domain with a group of its span. */
  @SuppressWarnings("NullAway.Init") // set by the domain builder
  GroupCapacity[] groupCaps;

  final boolean shareLlc;
  final int imbalancePct;
  final int busyFactor;
  final long minIntervalMs;
  final long maxIntervalMs;
  long balanceIntervalMs;
  long lastBalance;
  int nrBalanceFailed;
  long maxNewidleLbCost;
  long lastDecayMaxLbCost;

  /** {@code SD_ASYM_CPUCAPACITY}: CPUs of the span differ in capacity. */
  boolean asymCapacity;

  /**
   * SD_BALANCE_FORK, SD_BALANCE_EXEC and SD_WAKE_AFFINE (one switch: {@code sd_init()} sets and
   * clears the three together).
   */
  boolean forkExecAffine = true;

  SchedDomain(
      String name,
      BitSet span,
      long[] spanMask,
      BitSet[] groups,
      boolean shareLlc,
      int imbalancePct,
      int busyFactor) {
    this.name = name;
    this.span = span;
    this.spanMask = spanMask;
    this.weight = span.cardinality();
    this.groups = groups;
    this.shareLlc = shareLlc;
    this.imbalancePct = imbalancePct;
    this.busyFactor = busyFactor;
    this.minIntervalMs = weight;
    this.maxIntervalMs = 2L * weight;
    this.balanceIntervalMs = weight;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int weight() {
    return weight;
  }

  @Override
  public boolean contains(int cpu) {
    return cpu >>> 6 < spanMask.length && CpuMasks.test(spanMask, cpu);
  }

  @Override
  public int nextCpu(int from) {
    return CpuMasks.next(spanMask, from);
  }

  @Override
  public int weightIn(int from, int to) {
    return CpuMasks.weight(spanMask, from, to);
  }

  @Override
  public int imbalancePct() {
    return imbalancePct;
  }

  @Override
  public boolean sharesLlc() {
    return shareLlc;
  }

  @Override
  public boolean numa() {
    return "NUMA".equals(name);
  }

  @Override
  public boolean asymCapacity() {
    return asymCapacity;
  }

  @Override
  public boolean balanceFork() {
    return forkExecAffine;
  }

  @Override
  public boolean balanceExec() {
    return forkExecAffine;
  }

  @Override
  public boolean wakeAffine() {
    return forkExecAffine;
  }

  @Override
  public int nrGroups() {
    return groups.length;
  }

  @Override
  public int groupOf(int cpu) {
    for (int g = 0; g < groupCaps.length; g++) {
      long[] mask = groupCaps[g].mask;
      if (cpu >>> 6 < mask.length && CpuMasks.test(mask, cpu)) {
        return g;
      }
    }
    return -1;
  }

  @Override
  public int groupNextCpu(int g, int from) {
    return CpuMasks.next(groupCaps[g].mask, from);
  }

  @Override
  public int groupWeight(int g) {
    return groupCaps[g].weight;
  }

  @Override
  public long groupCapacity(int g) {
    return groupCaps[g].capacity();
  }

  @Override
  public long groupMaxCapacity(int g) {
    return groupCaps[g].maxCapacity();
  }
}
