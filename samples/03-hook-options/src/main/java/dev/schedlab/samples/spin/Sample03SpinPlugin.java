package dev.schedlab.samples.spin;

import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * Sample 03: a patch as a hook override, with options.
 *
 * <p>A kernel patch changes behaviour at a few places; the engine names them hook points (H1-H15,
 * {@link HookPoint}), each with a {@code MAINLINE} implementation. A plugin overrides exactly the
 * points its diff touches and declares them in its descriptor; the host refuses an override that is
 * not declared, and two enabled plugins that override the same point.
 *
 * <p>This patch spins before a task goes to sleep (hook H2, before {@code deactivate_task()}): a
 * wakeup within the spin finds the task still queued ({@code ttwu_runnable()}) and saves the switch
 * to idle and back. It is a much simplified form of the bundled {@code idle-spin} plugin.
 *
 * <p>Options come from an option line ({@code --plugin sample-spin:limit=20us;kthreads=true}) or
 * the scenario's {@code plugins:} entry. The plugin lists its keys in {@link #optionKeys()} (the
 * host rejects any other key before {@link #contribute} runs) and parses them into a record with
 * defaults and validation, {@link SpinOptions}; a bad value is an {@link IllegalArgumentException}
 * that names the option, which the host reports as bad input (exit 2).
 *
 * <h2>How to run</h2>
 *
 * <pre>
 * mvn -pl samples/03-hook-options -am verify
 * ./schedlab run SCENARIO --plugins-dir samples/03-hook-options/target/plugins \
 *     --plugin 'sample-spin:limit=100us'
 * </pre>
 */
@Extension
public final class Sample03SpinPlugin implements SchedlabPlugin {
  private static final PluginMetadata BUILD = PluginMetadata.of(Sample03SpinPlugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "RFC \"busy wait before going idle\" (LKML 2018-04-15), simplified",
        Set.of(HookPoint.H2_BEFORE_DEACTIVATE),
        Set.of());
  }

  @Override
  public Set<String> optionKeys() {
    return SpinOptions.KEYS;
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    SpinOptions o = SpinOptions.parse(options);
    contributions.hook(
        BeforeDeactivateHook.class,
        (cpu, prev, rq) -> prev.isKthread() && !o.kthreads() ? 0L : o.limitNs());
  }
}
