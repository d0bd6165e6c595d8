package dev.schedlab.engine.core;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.ScenarioException;
import dev.schedlab.engine.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Builds kernels for mechanism tests from YAML text, with the built-in providers and mainline hooks. */
final class TestKernels {
  private TestKernels() {}

  static Extensions builtins() {
    return withPickOverride(PickOverrideHook.MAINLINE);
  }

  static Extensions withPickOverride(PickOverrideHook pick) {
    List<SchedulingClass> classes = new ArrayList<>();
    ServiceLoader.load(SchedulingClass.class).forEach(classes::add);
    classes.sort(Comparator.comparingInt(SchedulingClass::rank).reversed());
    Map<String, PreemptionModel> models = new TreeMap<>();
    ServiceLoader.load(PreemptionModel.class).forEach(m -> models.put(m.name(), m));
    Map<String, IdlePolicy> policies = new TreeMap<>();
    ServiceLoader.load(IdlePolicy.class).forEach(p -> policies.put(p.name(), p));
    return new Extensions(classes, models, policies, pick, BeforeDeactivateHook.MAINLINE, null,
        NohzIdleEnterHook.MAINLINE, NohzKickHook.MAINLINE, NewidleFailHook.MAINLINE,
        IdleTopHook.MAINLINE, ExitToUserHook.MAINLINE, IpiPrepareHook.MAINLINE,
        RunnableWakeHook.MAINLINE, List.of(), List.of());
  }

  static Scenario scenario(String yaml) {
    try {
      return ScenarioLoader.parse("test.yaml", yaml, true, "test", List.of());
    } catch (ScenarioException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static Kernel kernel(String yaml) {
    return KernelBuilder.build(scenario(yaml), builtins(), TraceSink.NONE);
  }

  static Kernel kernel(Scenario s, Extensions ext) {
    return KernelBuilder.build(s, ext, TraceSink.NONE);
  }

  static long counter(Kernel k, String name) {
    return k.metrics.counter(name).value();
  }
}
