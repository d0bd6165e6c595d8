package dev.schedlab.engine.plugin;

import dev.schedlab.api.ApiVersion;
import java.nio.file.Path;
import java.util.List;
import org.pf4j.CompoundPluginRepository;
import org.pf4j.DefaultPluginLoader;
import org.pf4j.DefaultPluginManager;
import org.pf4j.DefaultVersionManager;
import org.pf4j.ExtensionFinder;
import org.pf4j.LegacyExtensionFinder;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginDescriptorFinder;
import org.pf4j.PluginLoader;
import org.pf4j.PluginRepository;
import org.pf4j.PropertiesPluginDescriptorFinder;

/**
 * PF4J configured for schedlab: {@code plugin.properties} descriptors only, exploded plugin
 * directories (zips are expanded by {@link PluginDirectory}), the API loaded parent-first and
 * nothing of the host visible but the JDK, the API and PF4J ({@link PluginParentLoader}), the
 * extension index ({@code META-INF/extensions.idx}) as the only extension finder, and {@code
 * systemVersion} = {@link ApiVersion#CURRENT} so PF4J enforces {@code plugin.requires}.
 *
 * <p>The host loads each candidate with {@link #loadPlugin} itself (to attribute every failure to
 * its file), so the repository is empty.
 */
final class SchedlabPluginManager extends DefaultPluginManager {
  SchedlabPluginManager(Path root) {
    super(List.of(root));
    setSystemVersion(ApiVersion.CURRENT);
    setResolveRecoveryStrategy(ResolveRecoveryStrategy.IGNORE_PLUGIN_AND_CONTINUE);
  }

  @Override
  protected PluginRepository createPluginRepository() {
    return new CompoundPluginRepository();
  }

  @Override
  protected PluginDescriptorFinder createPluginDescriptorFinder() {
    return new PropertiesPluginDescriptorFinder();
  }

  @Override
  protected ExtensionFinder createExtensionFinder() {
    LegacyExtensionFinder finder = new LegacyExtensionFinder(this);
    addPluginStateListener(finder);
    return finder;
  }

  @Override
  protected PluginLoader createPluginLoader() {
    return new DefaultPluginLoader(this) {
      @Override
      protected PluginClassLoader createPluginClassLoader(
          Path pluginPath, org.pf4j.PluginDescriptor descriptor) {
        return new ApiFirstClassLoader(
            pluginManager,
            descriptor,
            new PluginParentLoader(SchedlabPluginManager.class.getClassLoader()));
      }
    };
  }

  /** Whether the plugin's {@code plugin.requires} admits the host's API (PF4J's own check). */
  boolean apiCompatible(org.pf4j.PluginWrapper w) {
    return isPluginValid(w);
  }

  /** The same check for a range given directly (in-process plugins). */
  static boolean apiCompatible(String requires) {
    return new DefaultVersionManager().checkVersionConstraint(ApiVersion.CURRENT, requires);
  }
}
