package dev.schedlab.engine.plugin;

import java.net.URL;
import org.pf4j.PluginClassLoader;
import org.pf4j.PluginManager;

/**
 * A plugin class loader that loads the schedlab API and PF4J from the host (parent-first) and
 * everything else plugin-first; its parent ({@link PluginParentLoader}) shows nothing else of the
 * host. A plugin that bundles its own copy of the API therefore still sees the host's {@code
 * SchedlabPlugin} and its extensions are found (pf4j/pf4j#64, #519).
 *
 * <p>The extension index is read from the plugin alone: PF4J's default lookup falls back to the
 * application class path, which would make a plugin without an index report the host's extensions.
 */
final class ApiFirstClassLoader extends PluginClassLoader {
  static final String EXTENSIONS_INDEX = "META-INF/extensions.idx";
  private static final String[] PARENT_FIRST_CLASSES = {"dev.schedlab.api.", "org.pf4j."};
  private static final String[] PARENT_FIRST_RESOURCES = {"dev/schedlab/api/", "org/pf4j/"};

  ApiFirstClassLoader(
      PluginManager manager, org.pf4j.PluginDescriptor descriptor, ClassLoader parent) {
    super(manager, descriptor, parent);
  }

  @Override
  public Class<?> loadClass(String className) throws ClassNotFoundException {
    for (String prefix : PARENT_FIRST_CLASSES) {
      if (className.startsWith(prefix)) {
        return getParent().loadClass(className);
      }
    }
    return super.loadClass(className);
  }

  @Override
  public URL getResource(String name) {
    if (EXTENSIONS_INDEX.equals(name)) {
      return findResource(name);
    }
    for (String prefix : PARENT_FIRST_RESOURCES) {
      if (name.startsWith(prefix)) {
        return getParent().getResource(name);
      }
    }
    return super.getResource(name);
  }
}
