package dev.schedlab.plugins.ilb;

import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Plugin {@code ilb-ipi-avoidance}: seed 002, "[PATCH RFC] sched/fair: Avoid unnecessary IPIs for
 * ILB" (Vineeth Pillai, Joel Fernandes, 2023-10-05; Fixes: 7fd7a9e0caba).
 *
 * <p>Models: The three changes of the diff, each through its hook point: {@code
 * nohz_balance_enter_idle()} stops setting {@code nohz.needs_update} (H6, {@link
 * NoNeedsUpdateOnTickStop}), so {@code nohz_balancer_kick()}'s unchanged {@code out:} stage (H7) no
 * longer adds NOHZ_NEXT_KICK; a failed newidle balance sets NEXT_KICK locally when {@code
 * rq->next_balance} is earlier than {@code nohz.next_balance} (H8, {@link NextKickOnNewidleFail});
 * {@code nohz_run_idle_balance()} runs {@code _nohz_idle_balance()} locally for NEXT/NEWILB (H9 and
 * H10, {@link LocalIdleBalance}).
 *
 * <p>Does not model: Concurrency between a local run and a remote ILB (the engine is
 * single-threaded), so the review's race does not corrupt state here; the engine counts the symptom
 * the kernel test robot hit instead: a kick whose NEXT bit the local path consumed first reaches
 * {@code nohz_csd_func()} with no kick flag (metric {@code nohz.csd_without_kick_flags}).
 *
 * <p>Review and status: Not merged. Vincent Guittot: passing {@code flags} (NEWILB, not STATS) to
 * {@code _nohz_idle_balance()} breaks the blocked-load update; {@code _nohz_idle_balance()} is not
 * robust against parallel runs; setting {@code needs_update} in {@code nohz_balance_enter_idle()}
 * "is the main way" to refresh {@code next_balance}. Ingo Molnar: it makes {@code
 * _nohz_idle_balance()} run more in parallel. The kernel test robot hit {@code WARN_ON(!(flags &
 * NOHZ_KICK_MASK))} in {@code nohz_csd_func()}. A v2 (2023-10-20) updated {@code nohz.next_balance}
 * directly with a cmpxchg loop instead; not merged either.
 *
 * <p>Kernel reference: https://lore.kernel.org/all/20231005161727.1855004-1-joel@joelfernandes.org/
 * (base v6.6-rc4).
 */
@Extension
public final class IlbIpiAvoidancePlugin implements SchedlabPlugin {
  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(IlbIpiAvoidancePlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "lore 20231005161727.1855004-1-joel@joelfernandes.org (RFC, not merged)",
        Set.of(HookPoint.H6_NOHZ_ENTER_IDLE, HookPoint.H8_NEWIDLE_FAIL, HookPoint.H9_IDLE_TOP),
        Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.hook(NohzIdleEnterHook.class, new NoNeedsUpdateOnTickStop());
    contributions.hook(NewidleFailHook.class, new NextKickOnNewidleFail());
    contributions.hook(IdleTopHook.class, new LocalIdleBalance());
  }
}
