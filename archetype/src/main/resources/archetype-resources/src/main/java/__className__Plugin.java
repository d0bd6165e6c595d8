package ${package};

#if( $variant == "hook-override" )
import dev.schedlab.api.hook.PickOverrideHook;
#end
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginMetadata;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import java.util.Set;
import org.pf4j.Extension;

/**
 * The plugin {@code ${artifactId}}. The host finds it through {@code @Extension} (PF4J's index),
 * reads {@link #descriptor()} and calls {@link #contribute} once per run with the options of the
 * command line ({@code --plugin ${artifactId}:key=value}) or the scenario.
 */
@Extension
public final class ${className}Plugin implements SchedlabPlugin {
  /** Id, version and API range as the pom declares them (plugin.properties). */
  private static final PluginMetadata BUILD = PluginMetadata.of(${className}Plugin.class);

  @Override
  public PluginDescriptor descriptor() {
    return BUILD.descriptor(
        "what it reproduces: a kernel commit, a lore message id, or a paper",
#if( $variant == "hook-override" )
        Set.of(HookPoint.H1_PICK_OVERRIDE), // every hook point contribute() overrides
#else
        Set.<HookPoint>of(), // hook points overridden: none (contributions are not hooks)
#end
        Set.of()); // ids of plugins it must not be enabled with
  }

#if( $variant == "scheduling-class" )
  @Override
  public Set<String> optionKeys() {
    return Set.of(${className}SchedulingClass.SLICE_TICKS);
  }

  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    long ticks = options.getLong(${className}SchedulingClass.SLICE_TICKS, 4);
    if (ticks < 1) {
      throw new IllegalArgumentException("plugin " + BUILD.id() + ": option '"
          + ${className}SchedulingClass.SLICE_TICKS + "' must be at least 1, got " + ticks);
    }
    contributions.addSchedulingClass(new ${className}SchedulingClass(BUILD.id(), (int) ticks));
  }
#elseif( $variant == "hook-override" )
  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.hook(PickOverrideHook.class, new ${className}Hook());
  }
#else
  @Override
  public void contribute(Contributions contributions, PluginOptions options) {
    contributions.addIdlePolicy(new ${className}IdlePolicy(BUILD.id()));
  }
#end
}
