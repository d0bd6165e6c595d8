package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.config.WorkloadConfig;
import java.util.List;

/**
 * A fully parsed, validated scenario: what to simulate. Built by {@link ScenarioLoader} from YAML
 * or JSON; every field is documented in {@code docs/scenarios.md}.
 *
 * @param name scenario name (the file name without extension when not given)
 * @param seed root of all workload randomness
 * @param durationNs simulated time to run
 * @param machine the machine
 * @param kernel kernel configuration
 * @param workload the tasks
 * @param plugins plugins to enable, in order
 */
public record Scenario(
    String name,
    long seed,
    long durationNs,
    MachineSpec machine,
    KernelSpec kernel,
    WorkloadSpec workload,
    List<PluginRef> plugins) {
  public Scenario {
    plugins = List.copyOf(plugins);
  }

  /** What the model runs: this scenario without its plugin list and tool reports. */
  public RunConfig config() {
    return new RunConfig(
        name,
        seed,
        durationNs,
        machine,
        kernel,
        new WorkloadConfig(workload.tasks(), workload.sampleCaps(), workload.locks()));
  }

  /** The number of CPUs of the machine. */
  public int nrCpus() {
    return machine.nrCpus();
  }

  /** The name of the machine preset the machine started from (informational). */
  public String machinePreset() {
    return machine.preset();
  }

  /** This scenario with another seed. */
  public Scenario withSeed(long newSeed) {
    return new Scenario(name, newSeed, durationNs, machine, kernel, workload, plugins);
  }

  /** This scenario with another plugin list. */
  public Scenario withPlugins(List<PluginRef> newPlugins) {
    return new Scenario(name, seed, durationNs, machine, kernel, workload, newPlugins);
  }

  /** This scenario with another kernel section. */
  public Scenario withKernel(KernelSpec newKernel) {
    return new Scenario(name, seed, durationNs, machine, newKernel, workload, plugins);
  }
}
