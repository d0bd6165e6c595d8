package dev.schedlab.engine.core;

/**
 * {@code struct sched_group_capacity}: the sum of {@code capacity_of()} over a group's CPUs, one
 * object per group span shared by every domain that has that group, kept as each CPU's capacity
 * changes ({@link Cpu#setCapacity}) so a read does not walk the group.
 *
 * <p>The kernel refreshes {@code sgc->capacity} in {@code update_group_capacity()} during load
 * balancing; the model reads the current sum, as it did when it added the CPUs up at each read.
 *
 * <p>Kernel reference: {@code kernel/sched/sched.h} ({@code struct sched_group_capacity}).
 */
final class GroupCapacity {
  long capacity;
}
