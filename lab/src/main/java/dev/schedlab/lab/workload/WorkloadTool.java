package dev.schedlab.lab.workload;

/**
 * A benchmark tool that a scenario names under {@code workload.tools}, with the argument string a
 * user would type ({@code cyclictest: "-i 100 -d 100 -t -m"}). A tool parses its arguments strictly
 * and expands into task groups that model what its threads do (syscalls, sleeps, wakeups, kernel
 * paths), plus the latency series it samples and a report shaped like the tool's output.
 *
 * <p>Implementations are found with {@link java.util.ServiceLoader}: a third party adds a tool by
 * listing its class in {@code META-INF/services/dev.schedlab.lab.workload.WorkloadTool}.
 */
public interface WorkloadTool {
  /** The name written in scenarios ({@code cyclictest}, {@code stress-ng}). */
  String name();

  /** One line: what is modelled. */
  String summary();

  /** The model's costs and tunables, each with default, unit and source (docs/workloads.md). */
  default java.util.List<ToolParam> params() {
    return java.util.List.of();
  }

  /**
   * Expands {@code args} (the tool's command line without the program name).
   *
   * @throws ToolArgsException for an unknown option or a bad value; the message names the option
   */
  ToolExpansion expand(ToolContext ctx, String args) throws ToolArgsException;
}
