package dev.schedlab.testkit;

/**
 * A baseline run and a run with plugins on the same scenario and seed: the same workload randomness
 * (common random numbers), so every difference comes from the plugins.
 *
 * @param baseline the run without plugins
 * @param patched the run with the plugins enabled
 */
public record Comparison(Run baseline, Run patched) {
  /** {@code patched - baseline} of a whole-number metric. */
  public long delta(String metric) {
    return patched.metric(metric) - baseline.metric(metric);
  }

  /** {@code patched / baseline} of a whole-number metric (infinite or NaN for a zero baseline). */
  public double ratio(String metric) {
    return (double) patched.metric(metric) / baseline.metric(metric);
  }

  /** Whether the plugins changed the event stream at all. */
  public boolean changed() {
    return !patched.digest().equals(baseline.digest());
  }
}
