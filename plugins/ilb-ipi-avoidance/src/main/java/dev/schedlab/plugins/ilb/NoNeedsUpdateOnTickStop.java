package dev.schedlab.plugins.ilb;

import dev.schedlab.api.hook.NohzControl;
import dev.schedlab.api.hook.NohzIdleEnterHook;

/**
 * H6 of the RFC: {@code nohz_balance_enter_idle()} without {@code WRITE_ONCE(nohz.needs_update,
 * 1)}. A CPU stopping its tick no longer asks the next busy tick elsewhere for a NEXT_KICK.
 */
final class NoNeedsUpdateOnTickStop implements NohzIdleEnterHook {
  @Override
  public void enterIdle(int cpu, NohzControl nohz) {
    nohz.setRqHasBlockedLoad(cpu, true);
    if (!nohz.inIdleMask(cpu)) {
      nohz.addToIdleMask(cpu);
    }
    nohz.setHasBlockedLoad(true);
  }
}
