package dev.schedlab.engine.core;

import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioException;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.util.List;

/**
 * Builds kernels for mechanism tests from YAML text, with the built-in providers and mainline
 * hooks.
 */
final class TestKernels {
  private TestKernels() {}

  static Extensions builtins() {
    try (PluginHost host = PluginHost.builtinOnly()) {
      return host.extensionsFor(List.of());
    } catch (PluginException e) {
      throw new AssertionError(e);
    }
  }

  static Extensions withPickOverride(PickOverrideHook pick) {
    Extensions e = builtins();
    return new Extensions(
        e.classes(),
        e.preemptionModels(),
        e.idlePolicies(),
        pick,
        e.beforeDeactivate(),
        e.tick(),
        e.nohzEnterIdle(),
        e.nohzKick(),
        e.newidleFail(),
        e.idleTop(),
        e.exitToUser(),
        e.ipiPrepare(),
        e.runnableWake(),
        e.metrics(),
        e.plugins());
  }

  static Scenario scenario(String yaml) {
    try {
      return ScenarioLoader.parse("test.yaml", yaml, true, "test", List.of());
    } catch (ScenarioException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static Kernel kernel(String yaml) {
    return KernelBuilder.build(scenario(yaml).config(), builtins(), TraceSink.NONE);
  }

  static Kernel kernel(Scenario s, Extensions ext) {
    return KernelBuilder.build(s.config(), ext, TraceSink.NONE);
  }

  static long counter(Kernel k, String name) {
    return k.metrics.counter(name).value();
  }
}
