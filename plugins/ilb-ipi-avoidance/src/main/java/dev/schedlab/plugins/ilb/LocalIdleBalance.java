package dev.schedlab.plugins.ilb;

import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.NohzControl;

/**
 * H9 of the RFC: {@code nohz_run_idle_balance()} consumes NEWILB and NEXT and, when only those are
 * set and nothing needs the CPU, runs {@code _nohz_idle_balance(rq, flags)} locally (H10), which
 * clears {@code needs_update} and refreshes {@code nohz.next_balance} without an IPI. As in the
 * RFC, {@code flags} (not NOHZ_STATS_KICK) is passed, so a NEWILB-only run no longer updates
 * blocked load: the first objection of the review.
 */
final class LocalIdleBalance implements IdleTopHook {
  private static final int LOCAL = NohzControl.NEXT_KICK | NohzControl.NEWILB_KICK;

  @Override
  public void onDoIdleTop(int cpu, NohzControl nohz) {
    int flags = nohz.fetchAndClearFlags(cpu, LOCAL);
    if ((flags & LOCAL) == 0) {
      return;
    }
    if ((flags & ~LOCAL) == 0 && !nohz.needResched(cpu)) {
      nohz.idleBalance(cpu, flags);
    }
  }
}
