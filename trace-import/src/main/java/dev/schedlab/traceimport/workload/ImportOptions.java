package dev.schedlab.traceimport.workload;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * How to import a trace.
 *
 * @param name the scenario's name
 * @param machineFile a machine file ({@code schedlab host}) for the replay, or null for a generic
 *     machine with the trace's CPU count
 * @param scenarioDir the directory the scenario will be written to (a machine file is named
 *     relative to it), or null to name the machine file by its absolute path
 * @param autogroupsFile the traced threads' autogroups ({@link Autogroups}), or null: every task in
 *     the root task group
 */
public record ImportOptions(
    String name,
    @Nullable Path machineFile,
    @Nullable Path scenarioDir,
    @Nullable Path autogroupsFile) {

  /** Without autogroups. */
  public ImportOptions(String name, @Nullable Path machineFile, @Nullable Path scenarioDir) {
    this(name, machineFile, scenarioDir, null);
  }
}
