package dev.schedlab.engine.core;

import dev.schedlab.engine.output.HistogramJson;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Counters and latency histograms of one run, by name. Lookups happen at setup, not per event. */
final class Metrics {
  private final Map<String, MetricCounter> counters = new HashMap<>();
  private final Map<String, Histogram> histograms = new HashMap<>();

  MetricCounter counter(String name) {
    return counters.computeIfAbsent(name, n -> new MetricCounter());
  }

  /** A latency histogram in ns (3 significant digits, up to 100 s). */
  Histogram histogram(String name) {
    return histograms.computeIfAbsent(name, n -> new Histogram(100_000_000_000L, 3));
  }

  Map<String, Histogram> histograms() {
    return new TreeMap<>(histograms);
  }

  Map<String, Object> snapshot() {
    Map<String, Object> m = new TreeMap<>();
    for (Map.Entry<String, MetricCounter> e : counters.entrySet()) {
      m.put(e.getKey(), e.getValue().value);
    }
    for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
      m.put("latency." + e.getKey(), HistogramJson.of(e.getValue()));
    }
    return m;
  }
}
