package dev.schedlab.lab.run;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.PluginStatus;
import dev.schedlab.lab.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The plugins of one plugins directory, open for the length of a command: what was found, which
 * sets may be enabled together, what a set provides, and the extensions a scenario runs with. A
 * thin layer over the engine's {@link PluginHost}; close it to release the plugins' class loaders.
 */
public final class Plugins implements AutoCloseable {
  private final PluginHost host;

  private Plugins(PluginHost host) {
    this.host = host;
  }

  /** The plugins in {@code dir} (null: no plugins directory, the built-ins only). */
  public static Plugins open(@Nullable Path dir) {
    return new Plugins(PluginHost.open(dir));
  }

  /** Every plugin found, loaded or not, in the host's order. */
  public List<FoundPlugin> found() {
    return host.plugins().stream().map(Plugins::found).toList();
  }

  private static FoundPlugin found(PluginStatus p) {
    return new FoundPlugin(
        p.id(), p.version(), p.requires(), p.source(), p.descriptor(), p.problem());
  }

  /** The plugin sets that may be enabled together (what a matrix expands "all" to). */
  public List<List<String>> allowedCombinations() {
    return host.allowedCombinations();
  }

  /**
   * What the built-ins and the plugins {@code ids} (without options) provide together, or why they
   * cannot be enabled.
   */
  public Provided provided(List<String> ids) {
    try {
      Extensions ext =
          host.extensionsFor(ids.stream().map(id -> new PluginRef(id, Map.of())).toList());
      return new Provided(
          ext.classes().stream().map(SchedulingClass::name).toList(),
          List.copyOf(ext.preemptionModels().keySet()),
          List.copyOf(ext.idlePolicies().keySet()),
          null);
    } catch (PluginException e) {
      return new Provided(List.of(), List.of(), List.of(), e.getMessage());
    }
  }

  /**
   * The extensions {@code s} runs with: the built-ins and its plugins, resolved and guarded.
   *
   * @throws PluginException a plugin is unknown, failed to load, or conflicts with another
   */
  public Extensions extensionsFor(Scenario s) throws PluginException {
    return host.extensionsFor(s.plugins());
  }

  /** The engine's host, for the lab's packages that hand it on (the matrix's cell executors). */
  public PluginHost host() {
    return host;
  }

  @Override
  public void close() {
    host.close();
  }
}
