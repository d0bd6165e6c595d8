package dev.schedlab.engine.core;

import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import java.util.List;

/** The extensions of mechanism tests (built-in providers, mainline hooks) and their counters. */
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

  static long counter(Kernel k, String name) {
    return k.metrics.counter(name).value();
  }
}
