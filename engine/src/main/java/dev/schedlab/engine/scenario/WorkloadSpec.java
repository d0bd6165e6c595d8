package dev.schedlab.engine.scenario;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workload: task groups, each a number of identical tasks running the same program.
 *
 * @param tasks task groups
 * @param sampleCaps latency series that keep only their first N samples (stress-ng keeps 10000);
 *     such series also keep the raw values, for tools whose statistics need them
 */
public record WorkloadSpec(List<TaskSpec> tasks, Map<String, Integer> sampleCaps) {
  public WorkloadSpec {
    tasks = List.copyOf(tasks);
    sampleCaps = Collections.unmodifiableMap(new TreeMap<>(sampleCaps));
  }

  /** A workload without sample caps. */
  public WorkloadSpec(List<TaskSpec> tasks) {
    this(tasks, Map.of());
  }
}
