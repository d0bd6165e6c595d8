package dev.schedlab.engine.core;

import java.util.BitSet;

/**
 * A sched group's span as a mask and its capacity: the sum and the largest {@code capacity_of()} of
 * its CPUs. One instance per span, shared by every domain that has a group of that span (as the
 * kernel shares {@code struct sched_group_capacity}), kept until a CPU of the span changes
 * capacity.
 *
 * <p>Models: {@code sgc->capacity} and {@code sgc->max_capacity} as the sums over the group's
 * current {@code capacity_of()}, recomputed only after {@code update_cpu_capacity()} changed one of
 * them ({@link #capacityChanged()}), so reading them does not walk the group.
 *
 * <p>Does not model: the kernel's refresh of {@code sgc} only at {@code update_group_capacity()}
 * (the model's sums follow every change, as summing on each read did).
 *
 * <p>Kernel reference: {@code kernel/sched/sched.h} ({@code struct sched_group_capacity}), {@code
 * kernel/sched/topology.c} ({@code get_group}).
 */
final class GroupCapacity {
  /** The group's CPUs as a {@link CpuMasks} mask. */
  final long[] mask;

  final int weight;

  /**
   * {@code sgc->imbalance} (v4.17's balancer, {@code feature.LB_AVG_LOAD}): a pass of the child
   * level left load behind because of affinity, so the parent level sees this group as imbalanced.
   */
  boolean imbalance;

  private final Cpu[] cpus;
  private boolean valid;
  private long sum;
  private long max;

  GroupCapacity(BitSet span, Cpu[] cpus) {
    this.mask = span.toLongArray();
    this.weight = span.cardinality();
    this.cpus = cpus;
  }

  /** {@code sgc->capacity}. */
  long capacity() {
    if (!valid) {
      refresh();
    }
    return sum;
  }

  /** {@code sgc->max_capacity}. */
  long maxCapacity() {
    if (!valid) {
      refresh();
    }
    return max;
  }

  /** A CPU of the group changed {@code capacity_of()}. */
  void capacityChanged() {
    valid = false;
  }

  private void refresh() {
    long s = 0;
    long m = 0;
    for (int i = CpuMasks.next(mask, 0); i >= 0; i = CpuMasks.next(mask, i + 1)) {
      s += cpus[i].capacity;
      m = Math.max(m, cpus[i].capacity);
    }
    sum = s;
    max = m;
    valid = true;
  }
}
