package dev.schedlab.engine.scenario;

import java.util.List;

/**
 * The workload: task groups, each a number of identical tasks running the same program.
 *
 * @param tasks task groups
 */
public record WorkloadSpec(List<TaskSpec> tasks) {
  public WorkloadSpec {
    tasks = List.copyOf(tasks);
  }
}
