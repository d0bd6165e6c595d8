package dev.schedlab.samples.conflict;

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
 * Sample 04, the second of two plugins that override the same exclusive hook point, H1 (the pick in
 * {@code __schedule()}). Each may be enabled alone; together the host refuses them with a message
 * naming both, {@code schedlab plugins} lists the pair under "not allowed together", and a matrix
 * whose plugin sets are {@code all} never runs them together. A plugin can also declare a conflict
 * by id (the descriptor's last argument), for two versions of one patch that share no hook.
 *
 * <p>Both keep mainline behaviour (they never override the pick): what they would change is beside
 * the point here.
 *
 * <h2>How to run</h2>
 *
 * <pre>
 * mvn -pl samples/04-conflict/first,samples/04-conflict/second -am verify
 * mkdir -p /tmp/p &amp;&amp; cp samples/04-conflict/&#42;/target/plugins/&#42;.zip /tmp/p
 * ./schedlab plugins --plugins-dir /tmp/p
 * ./schedlab run examples/quickstart.yaml --plugins-dir /tmp/p --plugin sample-first --plugin sample-second
 * </pre>
 */
@Extension
public final class Sample04SecondPlugin implements SchedlabPlugin {
  private static final PluginMetadata BUILD = PluginMetadata.of(Sample04SecondPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor("sample 04", Set.of(HookPoint.H1_PICK_OVERRIDE), Set.of());
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.hook(PickOverrideHook.class, PickOverrideHook.MAINLINE);
  }
}
