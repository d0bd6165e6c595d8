package dev.schedlab.engine.plugin;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The parent of every plugin's class loader: all a plugin sees of the host is the JDK (through the
 * platform class loader, never the application class path), the schedlab API and PF4J. The engine,
 * Guice, Jackson, SLF4J and the rest of the CLI's class path do not exist for it; a plugin that
 * needs a library bundles it in {@code lib/}.
 */
final class PluginParentLoader extends ClassLoader {
  private static final String[] VISIBLE_CLASSES = {"dev.schedlab.api.", "org.pf4j."};
  private static final String[] VISIBLE_RESOURCES = {"dev/schedlab/api/", "org/pf4j/"};

  static {
    registerAsParallelCapable();
  }

  private final ClassLoader host;

  PluginParentLoader(ClassLoader host) {
    super("schedlab-plugin-parent", ClassLoader.getPlatformClassLoader());
    this.host = host;
  }

  private static boolean visible(String name, String[] prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (visible(name, VISIBLE_CLASSES)) {
      return host.loadClass(name);
    }
    return super.loadClass(name, resolve); // the JDK's modules, else ClassNotFoundException
  }

  @Override
  public URL getResource(String name) {
    return visible(name, VISIBLE_RESOURCES) ? host.getResource(name) : super.getResource(name);
  }

  @Override
  public Enumeration<URL> getResources(String name) throws IOException {
    return visible(name, VISIBLE_RESOURCES)
        ? host.getResources(name)
        : name.isEmpty() ? Collections.emptyEnumeration() : super.getResources(name);
  }
}
