package dev.schedlab.classes;

import dev.schedlab.api.view.TaskGroupView;
import org.jspecify.annotations.Nullable;

/**
 * A task group of the fair class ({@code struct task_group}): a runqueue and a group entity per
 * CPU, its shares and load, and its CFS bandwidth.
 *
 * <p>Models: per-CPU group runqueues whose entity is queued on the parent group's runqueue of the
 * same CPU while the runqueue has entities (and, with DELAY_DEQUEUE, after it emptied while the
 * entity was not eligible, see {@link FairHierarchy}); {@code calc_group_shares()} (shares x the
 * runqueue's load over the group's load summed across CPUs, {@code tg->load_avg}, clamped to
 * 2..shares) and {@code update_tg_load_avg()} (a runqueue's contribution is refreshed when it moved
 * by more than 1/64).
 *
 * <p>Does not model: group scheduling of the RT and deadline classes.
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code calc_group_shares}, {@code
 * update_tg_load_avg}, {@code init_tg_cfs_entry}).
 */
final class FairGroup {
  private static final long MIN_SHARES = 2;

  final int id;
  final @Nullable FairGroup parent;
  final long shares;

  /** Per-CPU runqueues (the CPUs' root runqueues for the root group). */
  final FairRq[] q;

  /** Per-CPU group entities (null for the root group). */
  final FairEntity @Nullable [] se;

  /** {@code tg->load_avg}. */
  long loadAvg;

  /** CFS bandwidth, or null without a quota. */
  @Nullable FairBandwidth bandwidth;

  /** The root group over the CPUs' root runqueues. */
  FairGroup(FairRq[] roots) {
    this.id = 0;
    this.parent = null;
    this.shares = 1024;
    this.q = roots;
    this.se = null;
  }

  /** A child of {@code parent} as {@code view} describes it. */
  FairGroup(TaskGroupView view, FairGroup parent, int nrCpus) {
    this.id = view.id();
    this.parent = parent;
    this.shares = view.shares();
    this.q = new FairRq[nrCpus];
    this.se = new FairEntity[nrCpus];
    for (int cpu = 0; cpu < nrCpus; cpu++) {
      FairRq rq = new FairRq(cpu, this);
      FairEntity e = new FairEntity(rq);
      e.weight = (int) shares;
      e.cfsRq = parent.q[cpu];
      e.parent = parent.se == null ? null : parent.se[cpu];
      rq.owner = e;
      q[cpu] = rq;
      se[cpu] = e;
    }
  }

  /** {@code calc_group_shares()} for this group's runqueue {@code gq}. */
  long calcShares(FairRq gq) {
    long load = Math.max(gq.load(), gq.avg.loadAvg);
    long tgWeight = loadAvg - gq.tgLoadContrib + load;
    long s = shares * load;
    if (tgWeight > 0) {
      s /= tgWeight;
    }
    return Math.max(MIN_SHARES, Math.min(shares, s));
  }

  /** {@code update_tg_load_avg()}: refresh {@code gq}'s contribution when it moved by > 1/64. */
  void updateLoad(FairRq gq) {
    long delta = gq.avg.loadAvg - gq.tgLoadContrib;
    if (Math.abs(delta) > gq.tgLoadContrib / 64) {
      loadAvg += delta;
      gq.tgLoadContrib = gq.avg.loadAvg;
    }
  }
}
