package dev.schedlab.engine.plugin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The plugin calls in progress on the simulation thread, innermost last. The simulation thread
 * writes it around every guarded call (plain stores with release ordering: no fence on x86); {@link
 * HookBudget}'s thread reads it to find a call that does not return.
 */
final class HookCalls {
  private static final VarHandle DEPTH;
  private static final VarHandle ENTRIES;

  static {
    try {
      MethodHandles.Lookup l = MethodHandles.lookup();
      DEPTH = l.findVarHandle(HookCalls.class, "depth", int.class);
      ENTRIES = l.findVarHandle(HookCalls.class, "entries", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private volatile PluginSlot[] slots = new PluginSlot[8];
  private volatile String[] hooks = new String[8];

  @SuppressWarnings("unused") // accessed through DEPTH
  private int depth;

  @SuppressWarnings("unused") // accessed through ENTRIES
  private long entries;

  /** The simulation thread enters plugin {@code s}'s code for {@code hook}. */
  void enter(PluginSlot s, String hook) {
    int d = (int) DEPTH.get(this);
    if (d == slots.length) {
      slots = Arrays.copyOf(slots, d * 2);
      hooks = Arrays.copyOf(hooks, d * 2);
    }
    slots[d] = s;
    hooks[d] = hook;
    ENTRIES.setOpaque(this, (long) ENTRIES.get(this) + 1);
    DEPTH.setRelease(this, d + 1);
  }

  /** The innermost call returned (or threw). */
  void exit() {
    DEPTH.setRelease(this, (int) DEPTH.get(this) - 1);
  }

  /** Calls in progress, as another thread sees them. */
  int depthSeen() {
    return (int) DEPTH.getAcquire(this);
  }

  /** Calls entered so far, as another thread sees them. */
  long entriesSeen() {
    return (long) ENTRIES.getOpaque(this);
  }

  /** The plugin of call {@code i} (0 = outermost); read after {@link #depthSeen}. */
  PluginSlot slotAt(int i) {
    return slots[i];
  }

  /** The hook of call {@code i}. */
  String hookAt(int i) {
    return hooks[i];
  }
}
