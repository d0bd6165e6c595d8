package dev.schedlab.api.hook;

import dev.schedlab.api.GroupStats;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.SchedDomainView;
import org.jspecify.annotations.Nullable;

/**
 * H17: the decision of one {@code sched_balance_rq()} pass, after {@code
 * sched_balance_find_src_group()} and {@code calculate_imbalance()}: how much to move from the
 * busiest group to {@code dst}. The statistics are the engine's and must be treated as read-only.
 * Since API 1.2.0.
 */
@FunctionalInterface
public interface LoadBalanceHook {
  /** {@code migration_type} migrate_load: {@code imbalance} is PELT load. */
  int MIGRATE_LOAD = 0;

  /** {@code migrate_util}: {@code imbalance} is utilisation. */
  int MIGRATE_UTIL = 1;

  /** {@code migrate_task}: {@code imbalance} is a number of tasks. */
  int MIGRATE_TASK = 2;

  /** {@code migrate_misfit}: move the misfit task. */
  int MIGRATE_MISFIT = 3;

  /** {@code idle} values: a busy CPU, an idle CPU's periodic pass, a newly idle CPU. */
  int CPU_NOT_IDLE = 1;

  /** An idle CPU's periodic or nohz pass ({@code CPU_IDLE}). */
  int CPU_IDLE = 0;

  /** A CPU about to go idle ({@code CPU_NEWLY_IDLE}). */
  int CPU_NEWLY_IDLE = 2;

  /** Mainline: mainline's imbalance. */
  LoadBalanceHook MAINLINE = (dst, sd, idle, local, busiest, migrationType, imbalance) -> imbalance;

  /**
   * The imbalance to move (0: balanced, nothing moves), in the unit of {@code migrationType}.
   *
   * @param busiest the busiest group's statistics, or null when mainline found none
   * @param imbalance mainline's imbalance (0 when mainline found the domain balanced)
   */
  long imbalance(
      CpuView dst,
      SchedDomainView sd,
      int idle,
      GroupStats local,
      @Nullable GroupStats busiest,
      int migrationType,
      long imbalance);
}
