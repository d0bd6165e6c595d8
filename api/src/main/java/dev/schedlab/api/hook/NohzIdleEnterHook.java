package dev.schedlab.api.hook;

/**
 * H6: {@code nohz_balance_enter_idle()}, called when {@code cpu}'s tick goes from running to
 * stopped.
 */
@FunctionalInterface
public interface NohzIdleEnterHook {
  /** Mainline (v5.13+): joins the idle mask and marks {@code nohz.needs_update}. */
  NohzIdleEnterHook MAINLINE =
      (cpu, nohz) -> {
        nohz.setRqHasBlockedLoad(cpu, true);
        if (!nohz.inIdleMask(cpu)) {
          nohz.addToIdleMask(cpu);
          nohz.setNeedsUpdate(true);
        }
        nohz.setHasBlockedLoad(true);
      };

  /** Runs the step for {@code cpu}. */
  void enterIdle(int cpu, NohzControl nohz);
}
