package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's idle policy behind a guard; the name is read once. A selected state outside the
 * machine's table is a violation. Once its plugin is ejected it answers as the built-in {@code
 * fallback} governor (the scenario default), set up at that moment.
 */
final class GuardedIdlePolicy implements IdlePolicy, PluginSlot.Releasable {
  private final PluginSlot slot;
  private IdlePolicy d;
  private final @Nullable IdlePolicy fallback;
  private final String name;
  private final String label;
  private MachineView machine;
  private boolean fallbackReady;

  GuardedIdlePolicy(PluginSlot slot, IdlePolicy delegate, @Nullable IdlePolicy fallback) {
    this.slot = slot;
    this.d = delegate;
    this.fallback = fallback;
    try {
      this.name = delegate.name();
    } catch (RuntimeException | Error e) {
      throw new PluginFailure(
          slot.id(), "idle policy " + delegate.getClass().getName() + ".name", e);
    }
    this.label = "idle policy " + name + ".";
  }

  // Dropped only once the slot is ejected; every call checks slot.ejected() before using d.
  @SuppressWarnings("NullAway")
  @Override
  public void release() {
    d = null;
  }

  PluginSlot slot() {
    return slot;
  }

  private IdlePolicy fallback() {
    IdlePolicy fallback =
        Objects.requireNonNull(this.fallback, "no built-in governor to fall back to");
    if (!fallbackReady) {
      fallbackReady = true;
      fallback.init(machine);
    }
    return fallback;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(MachineView m) {
    this.machine = m;
    if (!slot.ejected()) {
      slot.enter(label + "init");
      try {
        d.init(m);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "init", e);
      } finally {
        slot.exit();
      }
    }
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    if (!slot.ejected()) {
      int state = 0;
      slot.enter(label + "select");
      try {
        state = d.select(cpu, sleepLengthNs, tickDeltaNs, latencyLimitNs);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "select", e);
      } finally {
        slot.exit();
      }
      int states = machine.idleStates().size();
      if (!slot.ejected() && (state < 0 || state >= states)) {
        slot.fault(
            label + "select",
            "invariant violated: selected idle state " + state + " of a table of " + states,
            null);
      }
      if (!slot.ejected()) {
        return state;
      }
    }
    return fallback().select(cpu, sleepLengthNs, tickDeltaNs, latencyLimitNs);
  }

  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    if (!slot.ejected()) {
      slot.enter(label + "stopTick");
      try {
        return d.stopTick(cpu, stateIndex, sleepLengthNs);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "stopTick", e);
      } finally {
        slot.exit();
      }
    }
    return fallback().stopTick(cpu, stateIndex, sleepLengthNs);
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs) {
    reflect(cpu, stateIndex, residencyNs, false);
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs, boolean pollTimeLimit) {
    if (!slot.ejected()) {
      slot.enter(label + "reflect");
      try {
        d.reflect(cpu, stateIndex, residencyNs, pollTimeLimit);
        return;
      } catch (RuntimeException | Error e) {
        slot.threw(label + "reflect", e);
      } finally {
        slot.exit();
      }
    }
    fallback().reflect(cpu, stateIndex, residencyNs, pollTimeLimit);
  }

  @Override
  public long pollTimeLimitNs(CpuView cpu, long cpuidlePollTimeNs) {
    if (!slot.ejected()) {
      slot.enter(label + "pollTimeLimitNs");
      try {
        return d.pollTimeLimitNs(cpu, cpuidlePollTimeNs);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "pollTimeLimitNs", e);
      } finally {
        slot.exit();
      }
    }
    return fallback().pollTimeLimitNs(cpu, cpuidlePollTimeNs);
  }

  @Override
  public String toString() {
    return name + " (plugin " + slot.id() + ")";
  }
}
