package dev.schedlab.examples.wvtime;

import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * The {@code weighted-vtime} plugin: contributes the {@link WeightedVtimeClass} ({@code wvtime})
 * for tasks with {@code policy: ext}. It overrides no hook point (a scheduling class is not a hook)
 * and conflicts with nothing.
 *
 * <p>Option: {@code slice} (a duration such as {@code 5ms}; default 20 ms, scx_simple's {@code
 * SCX_SLICE_DFL}).
 *
 * <h2>Models / Does not model / Kernel reference</h2>
 *
 * <p>See {@link WeightedVtimeClass}.
 */
@Extension
public final class WeightedVtimePlugin implements SchedlabPlugin {
  /** The slice option key. */
  public static final String SLICE = "slice";

  /** Default slice, ns ({@code SCX_SLICE_DFL}). */
  public static final long DEFAULT_SLICE_NS = 20_000_000L;

  /** id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(WeightedVtimePlugin.class);

  /** The plugin id ({@code plugin.id} in the pom). */
  public static final String ID = BUILD.id();

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor("scx_simple (tools/sched_ext/scx_simple.bpf.c)", Set.of(), Set.of());
  }

  @Override
  public Set<String> optionKeys() {
    return Set.of(SLICE);
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    long slice = options.getDurationNs(SLICE, DEFAULT_SLICE_NS);
    if (slice <= 0) {
      throw new IllegalArgumentException(
          "plugin " + ID + ": option '" + SLICE + "' must be a positive duration, got " + slice);
    }
    contributions.addSchedulingClass(new WeightedVtimeClass(slice));
  }
}
