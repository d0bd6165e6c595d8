package dev.schedlab.engine.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.view.CpuView;
import dev.schedlab.api.view.MachineView;

/** A plugin's idle policy behind a guard; the name is read once. */
final class GuardedIdlePolicy implements IdlePolicy {
  private final String pluginId;
  private final IdlePolicy d;
  private final String name;
  private final String label;

  GuardedIdlePolicy(String pluginId, IdlePolicy delegate) {
    this.pluginId = pluginId;
    this.d = delegate;
    try {
      this.name = delegate.name();
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, "idle policy " + delegate.getClass().getName() + ".name", e);
    }
    this.label = "idle policy " + name + ".";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(MachineView machine) {
    try {
      d.init(machine);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "init", e);
    }
  }

  @Override
  public int select(CpuView cpu, long sleepLengthNs, long tickDeltaNs, long latencyLimitNs) {
    try {
      return d.select(cpu, sleepLengthNs, tickDeltaNs, latencyLimitNs);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "select", e);
    }
  }

  @Override
  public boolean stopTick(CpuView cpu, int stateIndex, long sleepLengthNs) {
    try {
      return d.stopTick(cpu, stateIndex, sleepLengthNs);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "stopTick", e);
    }
  }

  @Override
  public void reflect(CpuView cpu, int stateIndex, long residencyNs) {
    try {
      d.reflect(cpu, stateIndex, residencyNs);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "reflect", e);
    }
  }

  @Override
  public String toString() {
    return name + " (plugin " + pluginId + ")";
  }
}
