package dev.schedlab.engine.config;

/**
 * What the model runs: the machine, the kernel configuration and the task programs, with the seed
 * of all workload randomness and the simulated time to run. The lab builds it from a scenario file;
 * the model never sees the file's form.
 *
 * @param name run name (the scenario's), recorded in the result
 * @param seed root of all workload randomness
 * @param durationNs simulated time to run
 * @param machine the machine
 * @param kernel kernel configuration
 * @param workload the task groups, their latency-series caps and the kernel locks they take
 */
public record RunConfig(
    String name,
    long seed,
    long durationNs,
    MachineSpec machine,
    KernelSpec kernel,
    WorkloadConfig workload) {}
