package dev.schedlab.api.view;

/**
 * Read-only view of one level of a CPU's sched-domain hierarchy ({@code struct sched_domain}) and
 * its groups ({@code struct sched_group}): the child level's spans. CPU sets are walked like {@code
 * BitSet.nextSetBit}: {@code for (int c = firstCpu(); c >= 0; c = nextCpu(c + 1))}. Since API
 * 1.2.0.
 */
public interface SchedDomainView {
  /** Level name as in /proc/schedstat: SMT, MC, PKG or NUMA. */
  String name();

  /** {@code span_weight}: CPUs in the span. */
  int weight();

  /** Whether {@code cpu} is in the span. */
  boolean contains(int cpu);

  /** The lowest CPU of the span at or above {@code from}, or -1. */
  int nextCpu(int from);

  /** How many CPUs of the span lie in {@code [from, to)}, {@code 0 <= from}. */
  default int weightIn(int from, int to) {
    int n = 0;
    for (int c = nextCpu(from); c >= 0 && c < to; c = nextCpu(c + 1)) {
      n++;
    }
    return n;
  }

  /** {@code imbalance_pct}. */
  int imbalancePct();

  /** {@code SD_SHARE_LLC}: the span shares a last-level cache. */
  boolean sharesLlc();

  /** {@code SD_NUMA}. */
  boolean numa();

  /** {@code SD_ASYM_CPUCAPACITY}: the span holds CPUs of different capacities. */
  boolean asymCapacity();

  /**
   * {@code SD_BALANCE_FORK}: a new task may be placed anywhere in the span ({@code
   * select_task_rq_fair()}'s slow path starts at the highest level that has it). {@code sd_init()}
   * clears it, with {@link #balanceExec()} and {@link #wakeAffine()}, on a NUMA level farther than
   * {@code node_reclaim_distance}.
   */
  boolean balanceFork();

  /** {@code SD_BALANCE_EXEC}: as {@link #balanceFork()}, for exec. */
  boolean balanceExec();

  /** {@code SD_WAKE_AFFINE}: a wakeup may pull the task to the waker's CPU across this span. */
  boolean wakeAffine();

  /** Number of groups. */
  int nrGroups();

  /** Index of the group holding {@code cpu}, or -1. */
  int groupOf(int cpu);

  /** The lowest CPU of group {@code g} at or above {@code from}, or -1. */
  int groupNextCpu(int g, int from);

  /** {@code group_weight}. */
  int groupWeight(int g);

  /** {@code sgc->capacity}: the sum of {@code capacity_of()} over the group. */
  long groupCapacity(int g);

  /** {@code sgc->max_capacity}: the largest {@code capacity_of()} in the group. */
  long groupMaxCapacity(int g);
}
