package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.util.List;
import java.util.Map;

/**
 * What a tool expands into.
 *
 * @param tasks task groups modelling the tool's threads (and background stressors)
 * @param sampleCaps latency series kept raw with at most this many samples (reports need raw
 *     values)
 * @param latencyLimitNs a PM QoS request ({@code /dev/cpu_dma_latency}) the tool makes, or -1
 * @param report the tool-shaped report of a finished run
 * @param locks the kernel locks the tasks' kernel paths take
 * @param kernelThreads kernel threads the tasks' kernel paths need (a CPU's vmstat kworker): the
 *     machine has one of each, so a second tool that needs the same thread shares it
 */
public record ToolExpansion(
    List<TaskSpec> tasks,
    Map<String, Integer> sampleCaps,
    long latencyLimitNs,
    ToolReport report,
    List<LockSpec> locks,
    List<TaskSpec> kernelThreads) {
  public ToolExpansion {
    tasks = List.copyOf(tasks);
    sampleCaps = Map.copyOf(sampleCaps);
    locks = List.copyOf(locks);
    kernelThreads = List.copyOf(kernelThreads);
  }

  /** An expansion that needs no kernel threads of its own. */
  public ToolExpansion(
      List<TaskSpec> tasks,
      Map<String, Integer> sampleCaps,
      long latencyLimitNs,
      ToolReport report,
      List<LockSpec> locks) {
    this(tasks, sampleCaps, latencyLimitNs, report, locks, List.of());
  }

  /** An expansion whose tasks take no locks. */
  public ToolExpansion(
      List<TaskSpec> tasks,
      Map<String, Integer> sampleCaps,
      long latencyLimitNs,
      ToolReport report) {
    this(tasks, sampleCaps, latencyLimitNs, report, List.of(), List.of());
  }
}
