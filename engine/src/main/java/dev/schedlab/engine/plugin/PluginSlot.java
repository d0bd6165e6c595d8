package dev.schedlab.engine.plugin;

import dev.schedlab.api.SchedServices;
import dev.schedlab.api.SchedulingClass;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One plugin's standing in a run: active until ejected. Its guards ask it before every call, tell
 * it about every fault, and drop their references to the plugin's objects when it is ejected (so
 * memory a runaway plugin holds can be collected).
 */
final class PluginSlot {
  /** A guard holding plugin objects. */
  interface Releasable {
    /** Drops the references to the plugin's objects. */
    void release();
  }

  private final PluginSupervisor supervisor;
  private final String id;
  private final List<SchedulingClass> classes = new ArrayList<>();
  private final List<Releasable> guards = new ArrayList<>();
  private @Nullable GuardedServices services;
  private boolean ejected;

  PluginSlot(PluginSupervisor supervisor, String id) {
    this.supervisor = supervisor;
    this.id = id;
  }

  String id() {
    return id;
  }

  boolean ejected() {
    return ejected;
  }

  PluginSupervisor supervisor() {
    return supervisor;
  }

  /** The guarded classes this plugin added. */
  List<SchedulingClass> classes() {
    return classes;
  }

  void addClass(SchedulingClass guarded) {
    classes.add(guarded);
    supervisor.ownsClass(this, guarded);
  }

  <G extends Releasable> G track(G guard) {
    guards.add(guard);
    return guard;
  }

  /** {@code s} as this plugin may use it: arguments checked, callbacks guarded. */
  SchedServices services(SchedServices s) {
    if (services == null || !services.wraps(s)) {
      services = new GuardedServices(this, s);
    }
    return services;
  }

  void enter(String hook) {
    supervisor.calls().enter(this, hook);
  }

  void exit() {
    supervisor.calls().exit();
  }

  /** The machine's CPU count (for checks); unbounded before the run starts. */
  int nrCpus() {
    return supervisor.engine() == null ? Integer.MAX_VALUE : supervisor.engine().nrCpus();
  }

  /** Simulated time (for checks), or -1 before the run starts. */
  long now() {
    return supervisor.now();
  }

  /**
   * The plugin's code threw {@code thrown} in {@code hook}. JVM failures other than running out of
   * heap or stack pass unchanged, and so does another plugin's {@link PluginFailure} raised in code
   * this one called; otherwise as {@link #fault(String, String, Throwable)}.
   */
  void threw(String hook, Throwable thrown) {
    if (thrown instanceof VirtualMachineError vme
        && !(vme instanceof OutOfMemoryError)
        && !(vme instanceof StackOverflowError)) {
      throw vme;
    }
    if (thrown instanceof PluginFailure other) {
      throw other;
    }
    fault(hook, describe(thrown), thrown);
  }

  /**
   * A fault of this plugin in {@code hook}: under {@link PluginSupervisor.OnError#FAIL} (or before
   * the engine is attached) a {@link PluginFailure}; else the plugin is ejected and this returns,
   * so the guard can answer as mainline would. A fault of an ejected plugin is not reported again.
   */
  void fault(String hook, String reason, @Nullable Throwable cause) {
    if (ejected) {
      return;
    }
    if (supervisor.onError() == PluginSupervisor.OnError.FAIL || supervisor.engine() == null) {
      throw new PluginFailure(id, hook, reason, cause);
    }
    ejected = true;
    guards.forEach(Releasable::release);
    supervisor.eject(this, hook, reason);
  }

  /** The exception and the plugin frame that threw it, in one line. */
  static String describe(Throwable t) {
    StackTraceElement[] st = t.getStackTrace();
    return t + (st.length > 0 ? " at " + st[0] : "");
  }
}
