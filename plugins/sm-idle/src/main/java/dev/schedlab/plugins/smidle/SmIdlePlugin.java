package dev.schedlab.plugins.smidle;

import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Plugin {@code sm-idle}: seed 000, "[PATCH v2] sched/core: Introduce SM_IDLE and an idle re-entry
 * fast-path in __schedule()" (Peter Zijlstra, posted by K Prateek Nayak, 2024-08-09; merged as tip
 * 3dcac251b066 in v6.12). It overrides only hook H1; see {@link SmIdleFastPath}.
 */
@Extension
public final class SmIdlePlugin implements SchedlabPlugin {
  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(SmIdlePlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "tip 3dcac251b066 (v6.12); lore 20240809092240.6921-1-kprateek.nayak@amd.com",
        Set.of(HookPoint.H1_PICK_OVERRIDE),
        Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.hook(PickOverrideHook.class, new SmIdleFastPath());
  }
}
