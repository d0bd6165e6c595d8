package dev.schedlab.engine.config;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The task programs of a run.
 *
 * @param tasks task groups, in creation order
 * @param sampleCaps latency series that keep only their first N samples; such series also keep the
 *     raw values
 * @param locks the kernel locks the programs take
 */
public record WorkloadConfig(
    List<TaskSpec> tasks, Map<String, Integer> sampleCaps, List<LockSpec> locks) {
  public WorkloadConfig {
    tasks = List.copyOf(tasks);
    sampleCaps = Collections.unmodifiableMap(new TreeMap<>(sampleCaps));
    locks = List.copyOf(locks);
  }
}
