package dev.schedlab.engine.config;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kernel configuration.
 *
 * @param preempt preemption model name (none, voluntary, full, lazy, or one a plugin adds)
 * @param hz tick frequency
 * @param features sched features and engine switches by name (TTWU_QUEUE, POLLING_IPI, ...); absent
 *     names keep their defaults
 * @param params parameter-table overrides by key, values in the key's unit (durations in ns)
 * @param latencyLimitNs PM QoS CPU latency limit ({@code /dev/cpu_dma_latency}); Long.MAX_VALUE =
 *     none
 * @param rt CONFIG_PREEMPT_RT: {@code spinlock_t} and mutexes are rtmutexes (sleeping, with
 *     priority inheritance); needs a preemptible model (full, lazy)
 * @param cgroups cpu-controller cgroups, parents before children
 * @param autogroup {@code CONFIG_SCHED_AUTOGROUP} enabled ({@code kernel.sched_autogroup_enabled})
 */
public record KernelSpec(
    String preempt,
    int hz,
    Map<String, Boolean> features,
    Map<String, Long> params,
    long latencyLimitNs,
    boolean rt,
    java.util.List<CgroupSpec> cgroups,
    boolean autogroup) {
  /** The preemption model when a scenario names none (the distributions' common default). */
  public static final String DEFAULT_PREEMPT = "voluntary";

  public KernelSpec {
    features = Collections.unmodifiableMap(new TreeMap<>(features));
    params = Collections.unmodifiableMap(new TreeMap<>(params));
    cgroups = java.util.List.copyOf(cgroups);
  }

  /** A kernel without PREEMPT_RT, cgroups or autogroup. */
  public KernelSpec(
      String preempt,
      int hz,
      Map<String, Boolean> features,
      Map<String, Long> params,
      long latencyLimitNs) {
    this(preempt, hz, features, params, latencyLimitNs, false);
  }

  /** A kernel without cgroups or autogroup. */
  public KernelSpec(
      String preempt,
      int hz,
      Map<String, Boolean> features,
      Map<String, Long> params,
      long latencyLimitNs,
      boolean rt) {
    this(preempt, hz, features, params, latencyLimitNs, rt, java.util.List.of(), false);
  }

  /** A kernel without PREEMPT_RT. */
  public KernelSpec(
      String preempt,
      int hz,
      Map<String, Boolean> features,
      Map<String, Long> params,
      long latencyLimitNs,
      java.util.List<CgroupSpec> cgroups,
      boolean autogroup) {
    this(preempt, hz, features, params, latencyLimitNs, false, cgroups, autogroup);
  }
}
