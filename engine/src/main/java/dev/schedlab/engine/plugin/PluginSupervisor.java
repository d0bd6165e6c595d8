package dev.schedlab.engine.plugin;

import dev.schedlab.api.SchedulingClass;
import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.TaskView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Supervises the plugins of one run, as sched_ext's error exit does for a BPF scheduler: a plugin
 * that throws, breaks an invariant at the plugin boundary or leaves a task starving is either
 * ejected ({@link OnError#EJECT}: its classes' tasks move to the fair class, its hooks, preemption
 * model and idle policy revert to mainline, the run goes on) or stops the run ({@link
 * OnError#FAIL}: a {@link PluginFailure}). Every ejection is recorded with a runqueue dump.
 *
 * <p>The guards report to it; the engine registers itself as the {@link Engine} that carries an
 * ejection out. It also keeps the stack of plugin calls in progress ({@link HookCalls}) that the
 * wall-clock {@link HookBudget} watches from outside the model.
 */
public final class PluginSupervisor {
  /** What a plugin fault does to the run. */
  public enum OnError {
    /** Eject the plugin and go on on mainline (the default). */
    EJECT,
    /** Stop the run with a {@link PluginFailure}. */
    FAIL
  }

  /** What the engine does for the supervisor; implemented by the kernel of the run. */
  public interface Engine {
    /** Simulated time, ns. */
    long now();

    /** The number of CPUs. */
    int nrCpus();

    /** Every CPU's runqueue, one line per CPU. */
    String runqueueDump();

    /**
     * Carries out {@code ejection}: the tasks of {@code classes} move to the fair class, the
     * classes leave the pick order, every CPU reschedules, the trace records the dump.
     */
    void eject(PluginEjection ejection, List<SchedulingClass> classes);

    /** The class {@code p} belongs to now (after an ejection: the built-in one it moved to). */
    SchedulingClass classOf(TaskView p);

    /** Mainline's own H5 stage (task_mm_cid_work scheduling), for a reverted tick hook. */
    void mainlineTick(CpuView cpu, TaskView curr);
  }

  private final Map<String, PluginSlot> slots = new LinkedHashMap<>();
  private final IdentityHashMap<SchedulingClass, PluginSlot> classOwners = new IdentityHashMap<>();
  private final Map<HookPoint, PluginSlot> hookOwners = new EnumMap<>(HookPoint.class);
  private final List<PluginEjection> ejections = new ArrayList<>();
  private final HookCalls calls = new HookCalls();
  private OnError onError = OnError.EJECT;
  private boolean check;
  private @Nullable Engine engine;

  /** A supervisor without plugins (built-ins only, or extensions assembled by hand). */
  public static PluginSupervisor none() {
    return new PluginSupervisor();
  }

  /** Sets what a fault does; call before the run. */
  public void onError(OnError mode) {
    this.onError = mode;
  }

  /** The fault mode. */
  public OnError onError() {
    return onError;
  }

  /** Turns on the costly invariant checks ({@code --check}). */
  public void check(boolean on) {
    this.check = on;
  }

  /** Whether the costly checks are on. */
  public boolean checking() {
    return check;
  }

  /** Registers the engine of the run; called once by the kernel as it is built. */
  public void attach(Engine e) {
    this.engine = e;
  }

  /** Whether any plugin takes part in the run (the engine arms its watchdog only then). */
  public boolean hasPlugins() {
    return !slots.isEmpty();
  }

  /** The ejections so far, in order. */
  public List<PluginEjection> ejections() {
    return Collections.unmodifiableList(ejections);
  }

  /** The id of the active plugin owning {@code c}, or null for a built-in or ejected class. */
  public @Nullable String ownerOf(SchedulingClass c) {
    PluginSlot s = classOwners.get(c);
    return s == null || s.ejected() ? null : s.id();
  }

  /** The id of the active plugin overriding {@code point}, or null when mainline runs it. */
  public @Nullable String ownerOf(HookPoint point) {
    PluginSlot s = hookOwners.get(point);
    return s == null || s.ejected() ? null : s.id();
  }

  /** The id of the active plugin whose preemption model or idle policy {@code o} is, or null. */
  public @Nullable String ownerOfModel(Object o) {
    if (o instanceof GuardedPreemptionModel m && !m.slot().ejected()) {
      return m.slot().id();
    }
    if (o instanceof GuardedIdlePolicy p && !p.slot().ejected()) {
      return p.slot().id();
    }
    return null;
  }

  /**
   * An invariant broken by plugin {@code pluginId} in {@code hook}, found by the engine: ejects the
   * plugin and returns, or throws {@link PluginFailure} under {@link OnError#FAIL}.
   */
  public void violation(String pluginId, String hook, String what) {
    PluginSlot s = slots.get(pluginId);
    if (s == null) {
      throw new IllegalArgumentException("no plugin " + pluginId + " in this run");
    }
    s.fault(hook, "invariant violated: " + what, null);
  }

  /** The plugin calls in progress on the simulation thread (read by {@link HookBudget}). */
  HookCalls calls() {
    return calls;
  }

  /** Simulated time, or -1 before the engine is attached. */
  long now() {
    return engine == null ? -1 : engine.now();
  }

  @Nullable Engine engine() {
    return engine;
  }

  /** The slot of plugin {@code id}, created on first use. */
  PluginSlot slot(String id) {
    return slots.computeIfAbsent(id, k -> new PluginSlot(this, k));
  }

  void ownsClass(PluginSlot s, SchedulingClass guarded) {
    classOwners.put(guarded, s);
  }

  void ownsHook(PluginSlot s, HookPoint point) {
    hookOwners.put(point, s);
  }

  /** Records and carries out the ejection of {@code s}; called by the slot once it is marked. */
  void eject(PluginSlot s, String hook, String reason) {
    Engine engine = Objects.requireNonNull(this.engine, "ejection before the engine is attached");
    PluginEjection e =
        new PluginEjection(s.id(), hook, engine.now(), reason, engine.runqueueDump());
    ejections.add(e);
    engine.eject(e, s.classes());
  }
}
