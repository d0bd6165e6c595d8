package dev.schedlab.plugins.preemptauto;

import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Plugin {@code preempt-auto-voluntary}: seed 003, "[PATCH 26/30] sched: handle preempt=voluntary
 * under PREEMPT_AUTO" (Ankur Arora, 2024-02-13), with the PREEMPT_AUTO v1 series it belongs to.
 *
 * <p>Models: three preemption models, {@code auto-none}, {@code auto-voluntary} and {@code
 * auto-full} ({@link AutoModel}), selected by the scenario's {@code kernel.preempt}; they are H3
 * (resched bit choice) and H4 (preemption points, tick upgrade). The descriptor declares H3 and H4
 * for honesty: the host requires no declaration for a contributed model (only {@code
 * Contributions.hook()} checks the descriptor) and H3/H4 are not exclusive, so declaring them
 * conflicts with no other plugin.
 *
 * <p>Does not model: anything outside the preemption policy (see {@link AutoModel}).
 *
 * <p>Kernel reference: kernel/sched/core.c {@code resched_opt_translate()}, {@code
 * wakeup_preempt()}. Merge status: not merged; successor PREEMPT_LAZY, v6.13, tip 7c70cb94d29c.
 */
@Extension
public final class PreemptAutoPlugin implements SchedlabPlugin {
  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(PreemptAutoPlugin.class);

  /** The plugin id ({@code plugin.id} in the pom). */
  public static final String ID = BUILD.id();

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "lore 20240213055554.1802415-27-ankur.a.arora@oracle.com (PREEMPT_AUTO v1 26/30, not merged;"
            + " successor PREEMPT_LAZY v6.13 7c70cb94d29c)",
        Set.of(HookPoint.H3_RESCHED_BIT, HookPoint.H4_PREEMPT_POINTS),
        Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    options.checkOnly(Set.of());
    for (AutoModel.Mode m : AutoModel.Mode.values()) {
      contributions.addPreemptionModel(new AutoModel(m));
    }
  }
}
