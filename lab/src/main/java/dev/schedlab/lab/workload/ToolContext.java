package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.MachineSpec;
import java.util.Map;

/**
 * What a tool may know about the run when it expands.
 *
 * @param id instance id: the tool name, or {@code name#k} for the k-th repeat of a tool; task and
 *     series names start with it
 * @param machine the simulated machine
 * @param durationNs the scenario's duration
 * @param params model-parameter overrides (validated against {@link WorkloadTool#params()})
 * @param tickNs the kernel's tick period (1 s / {@code kernel.hz})
 */
public record ToolContext(
    String id, MachineSpec machine, long durationNs, Map<String, Long> params, long tickNs) {
  public ToolContext {
    params = Map.copyOf(params);
  }

  /** A context on a kernel of the default {@code kernel.hz} (1000). */
  public ToolContext(String id, MachineSpec machine, long durationNs, Map<String, Long> params) {
    this(id, machine, durationNs, params, 1_000_000);
  }

  /** Number of CPUs. */
  public int nrCpus() {
    return machine.nrCpus();
  }

  /** The value of model parameter {@code p}: the scenario's override or its default. */
  public long param(ToolParam p) {
    return params.getOrDefault(p.name(), p.defaultValue());
  }
}
