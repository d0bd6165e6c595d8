package dev.schedlab.plugins.ilb;

import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzControl;

/**
 * H8 of the RFC: {@code nohz_newidle_balance()} additionally sets NOHZ_NEXT_KICK on the local CPU
 * when its {@code rq->next_balance} is before {@code nohz.next_balance}, so the refresh happens
 * locally at the top of {@code do_idle()} instead of through an IPI.
 */
final class NextKickOnNewidleFail implements NewidleFailHook {
  @Override
  public void onNewidleFail(int cpu, NohzControl nohz, long jiffies, long migrationCostNs) {
    if (nohz.rqAvgIdleNs(cpu) < migrationCostNs) {
      return; // will wake up very soon
    }
    if (nohz.rqNextBalance(cpu) < nohz.nextBalance()) {
      nohz.orFlags(cpu, NohzControl.NEXT_KICK);
    }
    if (!nohz.hasBlockedLoad() || jiffies < nohz.nextBlocked()) {
      return;
    }
    nohz.orFlags(cpu, NohzControl.NEWILB_KICK);
  }
}
