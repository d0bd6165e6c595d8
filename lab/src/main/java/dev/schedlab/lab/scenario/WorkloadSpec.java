package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.lab.workload.ToolRun;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The workload: task groups, each a number of identical tasks running the same program.
 *
 * @param tasks task groups (hand-written ones first, then those the tools expanded into)
 * @param sampleCaps latency series that keep only their first N samples (stress-ng keeps 10000);
 *     such series also keep the raw values, for tools whose statistics need them
 * @param tools the benchmark tools of {@code workload.tools}, already expanded into {@code tasks},
 *     with their report formatters
 * @param locks the kernel locks the programs take ({@code workload.locks} and the tools' own)
 */
public record WorkloadSpec(
    List<TaskSpec> tasks,
    Map<String, Integer> sampleCaps,
    List<ToolRun> tools,
    List<LockSpec> locks) {
  public WorkloadSpec {
    tasks = List.copyOf(tasks);
    sampleCaps = Collections.unmodifiableMap(new TreeMap<>(sampleCaps));
    tools = List.copyOf(tools);
    locks = List.copyOf(locks);
  }

  /** A workload without lock declarations. */
  public WorkloadSpec(List<TaskSpec> tasks, Map<String, Integer> sampleCaps, List<ToolRun> tools) {
    this(tasks, sampleCaps, tools, List.of());
  }

  /** A workload without tools. */
  public WorkloadSpec(List<TaskSpec> tasks, Map<String, Integer> sampleCaps) {
    this(tasks, sampleCaps, List.of());
  }

  /** A workload without sample caps. */
  public WorkloadSpec(List<TaskSpec> tasks) {
    this(tasks, Map.of());
  }

  /** The number of tasks: every task group's count, summed. */
  public int taskCount() {
    return tasks.stream().mapToInt(TaskSpec::count).sum();
  }
}
