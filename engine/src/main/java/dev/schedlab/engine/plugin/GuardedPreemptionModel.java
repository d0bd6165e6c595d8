package dev.schedlab.engine.plugin;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;

/** A plugin's preemption model (hook points H3/H4) behind a guard; the name is read once. */
final class GuardedPreemptionModel implements PreemptionModel {
  private final String pluginId;
  private final PreemptionModel d;
  private final String name;
  private final String label;

  GuardedPreemptionModel(String pluginId, PreemptionModel delegate) {
    this.pluginId = pluginId;
    this.d = delegate;
    try {
      this.name = delegate.name();
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, "model " + delegate.getClass().getName() + ".name", e);
    }
    this.label = "model " + name + ".";
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
    try {
      return d.chooseBit(rq, curr, reason);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "chooseBit", e);
    }
  }

  @Override
  public boolean honours(PreemptPoint point, ReschedBit bit) {
    try {
      return d.honours(point, bit);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "honours", e);
    }
  }

  @Override
  public boolean tickUpgrade(RqView rq, TaskView curr) {
    try {
      return d.tickUpgrade(rq, curr);
    } catch (RuntimeException | Error e) {
      throw Guard.failure(pluginId, label + "tickUpgrade", e);
    }
  }

  @Override
  public String toString() {
    return name + " (plugin " + pluginId + ")";
  }
}
