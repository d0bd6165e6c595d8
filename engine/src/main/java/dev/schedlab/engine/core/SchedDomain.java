package dev.schedlab.engine.core;

import java.util.BitSet;

/**
 * One level of a CPU's sched-domain hierarchy with the parameters of {@code sd_init()}
 * (kernel/sched/topology.c) and the balancing state fair.c keeps in it.
 */
final class SchedDomain {
  /** Level names as in /proc/schedstat. */
  final String name;
  final BitSet span;
  final int weight;
  /** The groups of this level: the child level's spans (one CPU each at the lowest level). */
  final BitSet[] groups;
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

  SchedDomain(String name, BitSet span, BitSet[] groups, boolean shareLlc, int imbalancePct,
      int busyFactor) {
    this.name = name;
    this.span = span;
    this.weight = span.cardinality();
    this.groups = groups;
    this.shareLlc = shareLlc;
    this.imbalancePct = imbalancePct;
    this.busyFactor = busyFactor;
    this.minIntervalMs = weight;
    this.maxIntervalMs = 2L * weight;
    this.balanceIntervalMs = weight;
  }
}
