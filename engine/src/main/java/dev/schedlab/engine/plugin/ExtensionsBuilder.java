package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.hook.BeforeDeactivateHook;
import dev.schedlab.api.hook.ExitToUserHook;
import dev.schedlab.api.hook.IdleTopHook;
import dev.schedlab.api.hook.IpiPrepareHook;
import dev.schedlab.api.hook.LoadBalanceHook;
import dev.schedlab.api.hook.MetricsHook;
import dev.schedlab.api.hook.NewidleFailHook;
import dev.schedlab.api.hook.NohzIdleEnterHook;
import dev.schedlab.api.hook.NohzKickHook;
import dev.schedlab.api.hook.PeltHook;
import dev.schedlab.api.hook.PickOverrideHook;
import dev.schedlab.api.hook.RunnableWakeHook;
import dev.schedlab.api.hook.SelectTaskRqHook;
import dev.schedlab.api.hook.TickHook;
import dev.schedlab.api.plugin.Contributions;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Collects built-ins and plugin contributions for one run and resolves them into {@link
 * Extensions}. Violations of the contribution rules are raised as {@link Rejected} from inside
 * {@code contribute()} and turned into a {@link PluginException} by the host.
 */
final class ExtensionsBuilder {
  private static final String BUILTIN = "builtin";

  /** What an ejected plugin's preemption model falls back to: the scenario default. */
  static final String DEFAULT_PREEMPT = dev.schedlab.engine.config.KernelSpec.DEFAULT_PREEMPT;

  /**
   * What an ejected plugin's idle policy falls back to: the scenario default
   * (machine.idle_governor).
   */
  static final String DEFAULT_GOVERNOR = "menu";

  /** A contribution that breaks a rule; carries the user-facing message. */
  static final class Rejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Rejected(String message) {
      super(message, null, false, false);
    }
  }

  private record Owned<T>(String owner, T value) {}

  private final Map<String, Owned<SchedulingClass>> classes = new TreeMap<>();
  private final Map<String, Owned<PreemptionModel>> models = new TreeMap<>();
  private final Map<String, Owned<IdlePolicy>> policies = new TreeMap<>();
  private final Map<HookPoint, Owned<Object>> hooks = new EnumMap<>(HookPoint.class);
  private final List<MetricsHook> metrics = new ArrayList<>();
  private final PluginSupervisor supervisor = new PluginSupervisor();

  ExtensionsBuilder(Builtins builtins) {
    builtins.classes().forEach(c -> put(classes, "scheduling class", c.name(), BUILTIN, c));
    builtins.models().forEach(m -> put(models, "preemption model", m.name(), BUILTIN, m));
    builtins.policies().forEach(p -> put(policies, "idle policy", p.name(), BUILTIN, p));
  }

  /**
   * A {@link Contributions} for {@code descriptor}'s plugin; {@link PluginContributions#close} ends
   * it.
   */
  PluginContributions contributionsFor(PluginDescriptor descriptor) {
    return new PluginContributions(descriptor);
  }

  Extensions build(List<LoadedPlugin> plugins) {
    List<SchedulingClass> ordered =
        classes.values().stream()
            .map(Owned::value)
            .sorted(
                Comparator.comparingInt(SchedulingClass::rank)
                    .reversed()
                    .thenComparing(SchedulingClass::name))
            .toList();
    return new Extensions(
        ordered,
        byName(models),
        byName(policies),
        hook(HookPoint.H1_PICK_OVERRIDE, PickOverrideHook.MAINLINE),
        hook(HookPoint.H2_BEFORE_DEACTIVATE, BeforeDeactivateHook.MAINLINE),
        tick(),
        hook(HookPoint.H6_NOHZ_ENTER_IDLE, NohzIdleEnterHook.MAINLINE),
        hook(HookPoint.H7_NOHZ_KICK, NohzKickHook.MAINLINE),
        hook(HookPoint.H8_NEWIDLE_FAIL, NewidleFailHook.MAINLINE),
        hook(HookPoint.H9_IDLE_TOP, IdleTopHook.MAINLINE),
        hook(HookPoint.H11_EXIT_TO_USER, ExitToUserHook.MAINLINE),
        hook(HookPoint.H13_IPI_PREPARE, IpiPrepareHook.MAINLINE),
        hook(HookPoint.H14_RUNNABLE_WAKE, RunnableWakeHook.MAINLINE),
        List.copyOf(metrics),
        List.copyOf(plugins),
        hook(HookPoint.H16_SELECT_TASK_RQ, SelectTaskRqHook.MAINLINE),
        hook(HookPoint.H17_LOAD_BALANCE, LoadBalanceHook.MAINLINE),
        hook(HookPoint.H18_PELT, PeltHook.MAINLINE),
        supervisor);
  }

  @SuppressWarnings("unchecked")
  private <H> H hook(HookPoint point, H mainline) {
    Owned<Object> o = hooks.get(point);
    return o == null ? mainline : (H) o.value();
  }

  /** H5 has no mainline object: null unless a plugin overrides it. */
  private @Nullable TickHook tick() {
    Owned<Object> o = hooks.get(HookPoint.H5_TICK);
    return o == null ? null : (TickHook) o.value();
  }

  /** The built-in {@code name} an ejected plugin's model or policy falls back to, if loaded. */
  private static <T> @Nullable T builtin(Map<String, Owned<T>> map, String name) {
    Owned<T> o = map.get(name);
    return o != null && BUILTIN.equals(o.owner()) ? o.value() : null;
  }

  private static <T> Map<String, T> byName(Map<String, Owned<T>> m) {
    Map<String, T> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.value()));
    return Collections.unmodifiableMap(out);
  }

  private static <T> void put(
      Map<String, Owned<T>> map, String kind, String name, String owner, T value) {
    if (name == null || name.isBlank()) {
      throw new Rejected(label(owner) + " contributed a " + kind + " without a name");
    }
    Owned<T> prev = map.get(name);
    if (prev != null) {
      throw new Rejected(
          kind
              + " '"
              + name
              + "' is provided by both "
              + label(prev.owner())
              + " and "
              + label(owner));
    }
    map.put(name, new Owned<>(owner, value));
  }

  private static String label(String owner) {
    return BUILTIN.equals(owner) ? "the built-ins" : "plugin " + owner;
  }

  /** What one plugin's {@code contribute()} call may add. */
  final class PluginContributions implements Contributions {
    private final PluginDescriptor descriptor;
    private final String id;
    private final PluginSlot slot;
    private boolean closed;
    private @Nullable Rejected rejection;

    private PluginContributions(PluginDescriptor descriptor) {
      this.descriptor = descriptor;
      this.id = descriptor.id();
      this.slot = supervisor.slot(id);
    }

    void close() {
      closed = true;
    }

    /** The first rule this plugin broke, even if its code caught the exception. */
    @Nullable Rejected rejection() {
      return rejection;
    }

    private Rejected reject(String message) {
      Rejected r = new Rejected(message);
      if (rejection == null) {
        rejection = r;
      }
      return r;
    }

    private void open() {
      if (closed) {
        throw new IllegalStateException(
            "plugin " + id + ": contributions are accepted only during contribute()");
      }
    }

    @Override
    public <H> void hook(Class<H> type, H implementation) {
      open();
      if (type == null || implementation == null || !type.isInstance(implementation)) {
        throw reject(
            "plugin "
                + id
                + ": hook(type, implementation) needs a non-null "
                + "implementation of the given hook interface");
      }
      HookPoint point;
      if (type == MetricsHook.class) {
        point = HookPoint.H15_METRICS;
      } else {
        try {
          point = HookPoint.ofType(type);
        } catch (IllegalArgumentException e) {
          throw reject("plugin " + id + ": " + e.getMessage());
        }
      }
      if (!descriptor.hooks().contains(point)) {
        throw reject(
            "plugin "
                + id
                + " overrides hook "
                + point
                + " but its descriptor does not declare it in hooks "
                + descriptor.hooks());
      }
      Object guarded = HookGuards.guard(point, slot, implementation);
      if (point == HookPoint.H15_METRICS) {
        metrics.add((MetricsHook) guarded);
        return;
      }
      Owned<Object> prev = hooks.get(point);
      if (prev != null) {
        throw reject(
            prev.owner().equals(id)
                ? "plugin " + id + " overrides the exclusive hook " + point + " twice"
                : "plugins "
                    + prev.owner()
                    + " and "
                    + id
                    + " both override the exclusive hook "
                    + point
                    + " ("
                    + type.getSimpleName()
                    + ")");
      }
      hooks.put(point, new Owned<>(id, guarded));
      supervisor.ownsHook(slot, point);
    }

    @Override
    public void addSchedulingClass(SchedulingClass schedulingClass) {
      open();
      requireNonNull(schedulingClass, "addSchedulingClass");
      GuardedSchedulingClass g =
          slot.track(guard(() -> new GuardedSchedulingClass(slot, schedulingClass)));
      putRecorded(classes, "scheduling class", g.name(), g);
      slot.addClass(g);
    }

    @Override
    public void addPreemptionModel(PreemptionModel model) {
      open();
      requireNonNull(model, "addPreemptionModel");
      GuardedPreemptionModel g =
          slot.track(
              guard(
                  () -> new GuardedPreemptionModel(slot, model, builtin(models, DEFAULT_PREEMPT))));
      putRecorded(models, "preemption model", g.name(), g);
    }

    @Override
    public void addIdlePolicy(IdlePolicy policy) {
      open();
      requireNonNull(policy, "addIdlePolicy");
      GuardedIdlePolicy g =
          slot.track(
              guard(
                  () -> new GuardedIdlePolicy(slot, policy, builtin(policies, DEFAULT_GOVERNOR))));
      putRecorded(policies, "idle policy", g.name(), g);
    }

    private <T> void putRecorded(Map<String, Owned<T>> map, String kind, String name, T value) {
      try {
        put(map, kind, name, id, value);
      } catch (Rejected r) {
        if (rejection == null) {
          rejection = r;
        }
        throw r;
      }
    }

    /** A guard whose constructor read the plugin's name (and rank), which may throw. */
    private <G> G guard(java.util.function.Supplier<G> make) {
      try {
        return make.get();
      } catch (PluginFailure f) {
        throw reject("plugin " + id + " failed in " + f.hook() + ": " + f.getCause());
      }
    }

    private void requireNonNull(Object o, String method) {
      if (o == null) {
        throw reject("plugin " + id + ": " + method + "(null)");
      }
    }
  }
}
