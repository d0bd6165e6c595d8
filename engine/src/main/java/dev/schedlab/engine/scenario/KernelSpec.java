package dev.schedlab.engine.scenario;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernel configuration.
 *
 * @param preempt preemption model name (none, voluntary, full, lazy, or one a plugin adds)
 * @param hz tick frequency
 * @param features sched features and engine switches by name (TTWU_QUEUE, POLLING_IPI, ...);
 *     absent names keep their defaults
 * @param params parameter-table overrides by key, values in the key's unit (durations in ns)
 * @param latencyLimitNs PM QoS CPU latency limit ({@code /dev/cpu_dma_latency}); Long.MAX_VALUE = none
 * @param rt CONFIG_PREEMPT_RT: {@code spinlock_t} and mutexes are rtmutexes (sleeping, with
 *     priority inheritance); needs a preemptible model (full, lazy)
 */
public record KernelSpec(
    String preempt,
    int hz,
    Map<String, Boolean> features,
    Map<String, Long> params,
    long latencyLimitNs,
    boolean rt) {
  public KernelSpec {
    features = Collections.unmodifiableMap(new TreeMap<>(features));
    params = Collections.unmodifiableMap(new TreeMap<>(params));
  }

  /** A kernel without PREEMPT_RT. */
  public KernelSpec(String preempt, int hz, Map<String, Boolean> features, Map<String, Long> params,
      long latencyLimitNs) {
    this(preempt, hz, features, params, latencyLimitNs, false);
  }
}
