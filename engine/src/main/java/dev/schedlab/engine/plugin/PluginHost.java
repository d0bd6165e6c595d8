package dev.schedlab.engine.plugin;

import dev.schedlab.api.ApiVersion;
import dev.schedlab.api.plugin.PluginDescriptor;
import dev.schedlab.api.plugin.PluginOptions;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.config.PluginRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads plugins (PF4J) and built-in providers (ServiceLoader) and resolves the {@link Extensions}
 * of one run. A plugin that fails to load is reported in {@link #plugins()} and the rest load.
 *
 * <p>Typical use:
 *
 * <pre>{@code
 * try (PluginHost host = PluginHost.open(pluginsDir)) {
 *   host.plugins().stream().filter(s -> !s.loaded()).forEach(s -> warn(s.problem()));
 *   Extensions ext = host.extensionsFor(scenario.plugins()); // throws PluginException (exit 2)
 *   ... run the simulation with ext ...
 * }
 * }</pre>
 *
 * <p>Plugin-provided objects must not be used after {@link #close()}: their classes are unloaded.
 */
public final class PluginHost implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PluginHost.class);

  private final @Nullable Path pluginsDir;

  /**
   * The plugins found and loaded, once something asks for them: a run that enables no plugin does
   * not scan, unpack, check or load any (PF4J and the plugins' classes were about a tenth of a
   * short run's time).
   */
  private @Nullable Found found;

  /** The plugins directory's plugins: where they were unpacked, their manager, what loaded. */
  private record Found(
      @Nullable PluginDirectory directory,
      @Nullable SchedlabPluginManager manager,
      List<PluginStatus> statuses,
      Map<String, LoadedPlugin> loaded) {}

  /** Plugins given as classes in this JVM (tests, embedding), by id; empty for a PF4J host. */
  private final Map<String, Supplier<SchedlabPlugin>> inProcess;

  private boolean closed;

  private PluginHost(@Nullable Path pluginsDir) {
    this.pluginsDir = pluginsDir;
    this.inProcess = Map.of();
  }

  private PluginHost(
      List<PluginStatus> statuses,
      Map<String, LoadedPlugin> loaded,
      Map<String, Supplier<SchedlabPlugin>> inProcess) {
    this.pluginsDir = null;
    this.found = new Found(null, null, List.copyOf(statuses), loaded);
    this.inProcess = inProcess;
  }

  /**
   * A host whose plugins are classes on this JVM's class path rather than zips: for plugin authors'
   * tests and for embedding. Each supplier must return a new instance; the same rules (API range,
   * descriptor, options, hook conflicts, guards) apply as for loaded plugins.
   */
  @SafeVarargs
  public static PluginHost inProcess(Supplier<? extends SchedlabPlugin>... plugins) {
    Map<String, LoadedPlugin> loaded = new TreeMap<>();
    Map<String, Supplier<SchedlabPlugin>> suppliers = new TreeMap<>();
    List<PluginStatus> statuses = new ArrayList<>();
    for (Supplier<? extends SchedlabPlugin> s : plugins) {
      PluginDescriptor d = s.get().descriptor();
      String problem =
          SchedlabPluginManager.apiCompatible(d.requiresApi())
              ? null
              : "incompatible API: plugin.requires '"
                  + d.requiresApi()
                  + "' does not admit the schedlab API "
                  + ApiVersion.CURRENT
                  + " of this host";
      statuses.add(
          new PluginStatus(
              d.id(),
              d.version(),
              d.requiresApi(),
              "in-process",
              problem == null ? d : null,
              problem));
      if (problem == null) {
        loaded.put(d.id(), new LoadedPlugin(d, "in-process"));
        suppliers.put(d.id(), s::get);
      }
    }
    statuses.sort(Comparator.comparing(PluginStatus::id));
    return new PluginHost(statuses, loaded, suppliers);
  }

  /**
   * Opens the host on {@code pluginsDir} (may be null or missing: built-ins only). Never throws for
   * a bad plugin. The plugins are scanned and loaded when first needed: by {@link #plugins()},
   * {@link #allowedCombinations()} or the extensions of a run that enables one.
   */
  public static PluginHost open(@Nullable Path pluginsDir) {
    return new PluginHost(pluginsDir);
  }

  /** The plugins of the directory, scanned and loaded at the first call. */
  private synchronized Found found() {
    if (found == null) {
      found = closed ? new Found(null, null, List.of(), Map.of()) : load(pluginsDir);
    }
    return found;
  }

  private static Found load(@Nullable Path pluginsDir) {
    PluginDirectory directory = PluginDirectory.scan(pluginsDir);
    if (directory.candidates().isEmpty()) {
      return new Found(directory, null, List.of(), Map.of());
    }
    SchedlabPluginManager manager = new SchedlabPluginManager(directory.workDir());
    PluginLoading loading = new PluginLoading(manager);
    loading.loadAll(directory.candidates());
    List<PluginStatus> statuses = new ArrayList<>(loading.statuses());
    statuses.sort(Comparator.comparing(PluginStatus::id).thenComparing(PluginStatus::source));
    Map<String, LoadedPlugin> loaded = new TreeMap<>();
    for (PluginStatus s : statuses) {
      if (s.loaded()) {
        loaded.put(s.id(), new LoadedPlugin(Objects.requireNonNull(s.descriptor()), s.source()));
        LOG.info("Loaded plugin {} {} from {}", s.id(), s.version(), s.source());
      } else {
        LOG.warn("Plugin {} from {} not loaded: {}", s.id(), s.source(), s.problem());
      }
    }
    return new Found(directory, manager, List.copyOf(statuses), loaded);
  }

  /** A host without plugins: the built-in classes, models and policies only. */
  public static PluginHost builtinOnly() {
    return open(null);
  }

  /** Every plugin found, loaded or not, with the reason when not; sorted by id. */
  public List<PluginStatus> plugins() {
    return found().statuses();
  }

  /**
   * Resolves the extensions for {@code enabled}; unknown ids, failed plugins and conflicts are
   * errors.
   */
  public Extensions extensionsFor(List<PluginRef> enabled) throws PluginException {
    return extensionsFor(enabled, Builtins.load(PluginHost.class.getClassLoader()));
  }

  /** As {@link #extensionsFor(List)} with explicit built-ins (tests). */
  synchronized Extensions extensionsFor(List<PluginRef> enabled, Builtins builtins)
      throws PluginException {
    Objects.requireNonNull(enabled, "enabled");
    if (closed) {
      throw new IllegalStateException("plugin host is closed");
    }
    List<LoadedPlugin> selected = select(enabled);
    for (int i = 0; i < selected.size(); i++) {
      for (int j = i + 1; j < selected.size(); j++) {
        var conflict =
            Compatibility.declaredConflict(
                selected.get(i).descriptor(), selected.get(j).descriptor());
        if (conflict.isPresent()) {
          throw new PluginException(conflict.get() + ": enable at most one of them");
        }
      }
    }
    ExtensionsBuilder builder;
    try {
      builder = new ExtensionsBuilder(builtins);
    } catch (ExtensionsBuilder.Rejected e) {
      throw new PluginException(String.valueOf(e.getMessage()));
    }
    for (int i = 0; i < selected.size(); i++) {
      contribute(builder, selected.get(i).descriptor(), enabled.get(i));
    }
    return builder.build(selected);
  }

  private List<LoadedPlugin> select(List<PluginRef> enabled) throws PluginException {
    List<LoadedPlugin> selected = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (PluginRef ref : enabled) {
      String id = ref.id();
      if (!seen.add(id)) {
        throw new PluginException("plugin " + id + " is enabled twice");
      }
      Map<String, LoadedPlugin> loaded = found().loaded();
      LoadedPlugin p = loaded.get(id);
      if (p == null) {
        String available =
            loaded.isEmpty()
                ? "no plugins are loaded (plugins directory: " + pluginsDir + ")"
                : "available plugins: " + loaded.keySet();
        PluginStatus failed =
            found().statuses().stream().filter(s -> s.id().equals(id)).findFirst().orElse(null);
        throw new PluginException(
            failed != null
                ? "plugin " + id + " did not load (" + failed.problem() + "); " + available
                : "unknown plugin " + id + "; " + available);
      }
      selected.add(p);
    }
    return selected;
  }

  private void contribute(ExtensionsBuilder builder, PluginDescriptor d, PluginRef ref)
      throws PluginException {
    String id = d.id();
    SchedlabPlugin plugin = freshInstance(id);
    PluginOptions options = new PluginOptions(id, ref.options());
    try {
      options.checkOnly(plugin.optionKeys());
    } catch (IllegalArgumentException e) {
      throw new PluginException(String.valueOf(e.getMessage()));
    } catch (RuntimeException | LinkageError e) {
      throw new PluginException("plugin " + id + " failed in optionKeys(): " + e);
    }
    ExtensionsBuilder.PluginContributions c = builder.contributionsFor(d);
    try {
      plugin.contribute(c, options);
    } catch (ExtensionsBuilder.Rejected e) {
      throw new PluginException(String.valueOf(e.getMessage()));
    } catch (VirtualMachineError e) {
      throw e;
    } catch (RuntimeException | Error e) {
      LOG.debug("Plugin {} failed in contribute()", id, e);
      if (c.rejection() != null) {
        throw new PluginException(String.valueOf(c.rejection().getMessage()));
      }
      throw new PluginException(
          "plugin "
              + id
              + " failed in contribute(): "
              + (e.getMessage() != null ? e.getMessage() : e.toString()));
    } finally {
      c.close();
    }
    if (c.rejection() != null) {
      throw new PluginException(String.valueOf(c.rejection().getMessage()));
    }
  }

  private SchedlabPlugin freshInstance(String id) throws PluginException {
    Supplier<SchedlabPlugin> local = inProcess.get(id);
    if (local != null) {
      return local.get();
    }
    try {
      return Objects.requireNonNull(found().manager())
          .getExtensions(SchedlabPlugin.class, id)
          .get(0);
    } catch (RuntimeException | LinkageError e) {
      throw new PluginException("plugin " + id + ": cannot instantiate its extension: " + e);
    }
  }

  /**
   * Every set of loaded plugins that may be enabled together (no declared conflict, no exclusive
   * hook point declared by two of them), the empty set first; ordered by size, then by ids.
   */
  public List<List<String>> allowedCombinations() {
    return Compatibility.allowedCombinations(
        found().loaded().values().stream().map(LoadedPlugin::descriptor).toList());
  }

  /** Stops and unloads the plugins and deletes their expanded copies. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (found == null) {
      return;
    }
    SchedlabPluginManager manager = found.manager();
    PluginDirectory directory = found.directory();
    if (manager != null) {
      try {
        manager.stopPlugins();
        manager.unloadPlugins();
      } catch (RuntimeException e) {
        LOG.warn("Error while unloading plugins: {}", e.toString());
      }
    }
    if (directory != null) {
      directory.close();
    }
  }
}
