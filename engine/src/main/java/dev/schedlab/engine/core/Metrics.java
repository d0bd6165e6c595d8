package dev.schedlab.engine.core;

import dev.schedlab.engine.output.HistogramJson;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Counters and latency histograms of one run, by name. Lookups happen at setup, not per event. */
final class Metrics {
  private final Map<String, MetricCounter> counters = new HashMap<>();
  private final Map<String, SampleSeries> series = new HashMap<>();
  private final Map<String, TimeSeries> times = new HashMap<>();
  private Map<String, Integer> caps = Map.of();

  MetricCounter counter(String name) {
    return counters.computeIfAbsent(name, n -> new MetricCounter());
  }

  /** Sets the workload's sample caps before any series is created. */
  void capSamples(Map<String, Integer> sampleCaps) {
    caps = sampleCaps;
  }

  /** A latency series in ns. */
  SampleSeries series(String name) {
    return series.computeIfAbsent(name, n -> new SampleSeries(caps.getOrDefault(n, 0)));
  }

  /** A time series (values kept in order, reported with the raw samples as {@code clock/NAME}). */
  TimeSeries times(String name) {
    return times.computeIfAbsent(name, n -> new TimeSeries());
  }

  /** The latency histogram of series {@code name}. */
  Histogram histogram(String name) {
    return series(name).histogram;
  }

  /** Raw samples of the capped series and the time series, by name. */
  Map<String, long[]> rawSamples() {
    Map<String, long[]> m = new TreeMap<>();
    for (Map.Entry<String, SampleSeries> e : series.entrySet()) {
      long[] raw = e.getValue().raw();
      if (raw != null) {
        m.put(e.getKey(), raw);
      }
    }
    for (Map.Entry<String, TimeSeries> e : times.entrySet()) {
      m.put("clock/" + e.getKey(), e.getValue().toArray());
    }
    return m;
  }

  Map<String, Object> snapshot() {
    Map<String, Object> m = new TreeMap<>();
    for (Map.Entry<String, MetricCounter> e : counters.entrySet()) {
      m.put(e.getKey(), e.getValue().value);
    }
    for (Map.Entry<String, SampleSeries> e : series.entrySet()) {
      m.put("latency." + e.getKey(), HistogramJson.of(e.getValue().histogram));
    }
    return m;
  }
}
