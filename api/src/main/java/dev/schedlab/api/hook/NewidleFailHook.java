package dev.schedlab.api.hook;

/**
 * H8: {@code nohz_newidle_balance()}, called after a newidle balance pulled nothing. {@code
 * jiffies} is the current tick count; {@code migrationCostNs} is {@code
 * sysctl_sched_migration_cost}.
 */
@FunctionalInterface
public interface NewidleFailHook {
  /** Mainline: ask for a local blocked-load update (NEWILB) when it is due. */
  NewidleFailHook MAINLINE =
      (cpu, nohz, jiffies, migrationCostNs) -> {
        if (nohz.rqAvgIdleNs(cpu) < migrationCostNs) {
          return;
        }
        if (!nohz.hasBlockedLoad() || jiffies < nohz.nextBlocked()) {
          return;
        }
        nohz.orFlags(cpu, NohzControl.NEWILB_KICK);
      };

  /** Runs the step for {@code cpu}. */
  void onNewidleFail(int cpu, NohzControl nohz, long jiffies, long migrationCostNs);
}
