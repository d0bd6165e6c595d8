package dev.schedlab.plugins.mmcid;

import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Plugin {@code mm-cid-offload}: seed 001, "[PATCH 0/2] sched: improve task_mm_cid_work impact on
 * isolated systems" (Gabriele Monaco, 2024). Options (both on by default, as in the measured
 * series): {@code short_scan} (patch 1, scan only the cids in use) and {@code rcu} (patch 2, run
 * the work as an RCU callback instead of task_work). See {@link OffloadedMmCidStage}.
 */
@Extension
public final class MmCidOffloadPlugin implements SchedlabPlugin {
  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(MmCidOffloadPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "lore 20241202140735.56368-1-gmonaco@redhat.com (not merged; removed upstream in v6.19)",
        Set.of(HookPoint.H5_TICK, HookPoint.H11_EXIT_TO_USER, HookPoint.H12_DEFER),
        Set.of());
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of("short_scan", "rcu");
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.hook(
        TickHook.class,
        new OffloadedMmCidStage(
            options.getBoolean("short_scan", true), options.getBoolean("rcu", true)));
  }
}
