package dev.schedlab.engine.output;

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
    Map<String, long[]> rawSamples) {
  /** A result without raw samples. */
  public RunResult(String schedlabVersion, String scenario, long seed, List<String> plugins,
      String digest, long events, long simNs, long wallNs, Map<String, Object> metrics) {
    this(schedlabVersion, scenario, seed, plugins, digest, events, simNs, wallNs, metrics, Map.of());
  }
}
