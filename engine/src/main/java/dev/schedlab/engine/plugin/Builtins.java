package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The in-tree providers (stop/deadline/rt/fair/idle classes, the preemption models, the idle
 * governors), registered by the engine and classes modules in {@code META-INF/services}. Fresh
 * instances on every {@link #load}: classes keep per-run state.
 */
record Builtins(
    List<SchedulingClass> classes, List<PreemptionModel> models, List<IdlePolicy> policies) {
  Builtins {
    classes = List.copyOf(classes);
    models = List.copyOf(models);
    policies = List.copyOf(policies);
  }

  static Builtins none() {
    return new Builtins(List.of(), List.of(), List.of());
  }

  static Builtins load(ClassLoader loader) {
    return new Builtins(
        all(SchedulingClass.class, loader),
        all(PreemptionModel.class, loader),
        all(IdlePolicy.class, loader));
  }

  private static <T> List<T> all(Class<T> type, ClassLoader loader) {
    return ServiceLoader.load(type, loader).stream().map(ServiceLoader.Provider::get).toList();
  }
}
