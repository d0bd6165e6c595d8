package dev.schedlab.plugins.idlespin;

import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Plugin {@code idle-spin}: seed 004, "[RFC PATCH] kernel/sched/core: busy wait before going idle"
 * (Nicholas Piggin, linux-kernel, 2018-04-15; review by Peter Zijlstra and Pavan Kondeti; never
 * merged). It overrides hooks H2 (before {@code deactivate_task}) and H14 ({@code ttwu_runnable});
 * see {@link IdleSpin} for the model and {@link IdleSpinOptions} for the options.
 */
@Extension
public final class IdleSpinPlugin implements SchedlabPlugin {
  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(IdleSpinPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "RFC \"kernel/sched/core: busy wait before going idle\" (N. Piggin, LKML 2018-04-15; never merged)",
        Set.of(HookPoint.H2_BEFORE_DEACTIVATE, HookPoint.H14_RUNNABLE_WAKE),
        Set.of());
  }

  @Override
  public Set<String> optionKeys() {
    return IdleSpinOptions.KEYS;
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    IdleSpin spin = new IdleSpin(IdleSpinOptions.parse(options));
    contributions.hook(BeforeDeactivateHook.class, spin);
    contributions.hook(RunnableWakeHook.class, spin);
  }
}
