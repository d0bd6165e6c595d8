package dev.schedlab.api.hook;

/** H9: {@code nohz_run_idle_balance()} at the top of {@code do_idle()}, IRQs on. */
@FunctionalInterface
public interface IdleTopHook {
  /** Mainline: consume NEWILB and update blocked load locally, without an IPI. */
  IdleTopHook MAINLINE =
      (cpu, nohz) -> {
        int flags = nohz.fetchAndClearFlags(cpu, NohzControl.NEWILB_KICK);
        if (flags == NohzControl.NEWILB_KICK && !nohz.needResched(cpu)) {
          nohz.idleBalance(cpu, NohzControl.STATS_KICK);
        }
      };

  /** Runs the step for {@code cpu}. */
  void onDoIdleTop(int cpu, NohzControl nohz);
}
