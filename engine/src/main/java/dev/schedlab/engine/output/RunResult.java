package dev.schedlab.engine.output;

import dev.schedlab.engine.plugin.PluginEjection;
import java.util.List;
import java.util.Map;

/**
 * The result of one run, written as JSON by {@link ResultWriter} (keys in snake_case).
 *
 * @param schedlabVersion engine version
 * @param scenario scenario name
 * @param seed seed used
 * @param plugins ids of enabled plugins, in load order
 * @param digest hex hash of the whole event stream
 * @param events number of events processed
 * @param simNs simulated time, ns
 * @param wallNs wall time of the run, ns (the only non-deterministic figure)
 * @param metrics metrics by name: numbers, or nested maps (sorted keys) for groups and histograms
 * @param rawSamples raw values of capped latency series, by name (for tool-shaped reports; not in
 *     the JSON result)
 * @param ejections plugins ejected during the run, in order (empty when none misbehaved)
 */
public record RunResult(
    String schedlabVersion,
    String scenario,
    long seed,
    List<String> plugins,
    String digest,
    long events,
    long simNs,
    long wallNs,
    Map<String, Object> metrics,
    Map<String, long[]> rawSamples,
    List<PluginEjection> ejections) {
  public RunResult {
    ejections = List.copyOf(ejections);
  }

  /** A result without ejections. */
  public RunResult(
      String schedlabVersion,
      String scenario,
      long seed,
      List<String> plugins,
      String digest,
      long events,
      long simNs,
      long wallNs,
      Map<String, Object> metrics,
      Map<String, long[]> rawSamples) {
    this(
        schedlabVersion,
        scenario,
        seed,
        plugins,
        digest,
        events,
        simNs,
        wallNs,
        metrics,
        rawSamples,
        List.of());
  }

  /** A result without raw samples or ejections. */
  public RunResult(
      String schedlabVersion,
      String scenario,
      long seed,
      List<String> plugins,
      String digest,
      long events,
      long simNs,
      long wallNs,
      Map<String, Object> metrics) {
    this(
        schedlabVersion, scenario, seed, plugins, digest, events, simNs, wallNs, metrics, Map.of());
  }
}
