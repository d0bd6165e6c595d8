package dev.schedlab.engine.plugin;

import dev.schedlab.api.PreemptPoint;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.ReschedBit;
import dev.schedlab.api.ReschedReason;
import dev.schedlab.api.view.RqView;
import dev.schedlab.api.view.TaskView;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A plugin's preemption model (hook points H3/H4) behind a guard; the name is read once. Once its
 * plugin is ejected it answers as the built-in {@code fallback} model (the scenario default).
 */
final class GuardedPreemptionModel implements PreemptionModel, PluginSlot.Releasable {
  private final PluginSlot slot;
  private PreemptionModel d;
  private final @Nullable PreemptionModel fallback;
  private final String name;
  private final String label;

  GuardedPreemptionModel(
      PluginSlot slot, PreemptionModel delegate, @Nullable PreemptionModel fallback) {
    this.slot = slot;
    this.d = delegate;
    this.fallback = fallback;
    try {
      this.name = delegate.name();
    } catch (RuntimeException | Error e) {
      throw new PluginFailure(slot.id(), "model " + delegate.getClass().getName() + ".name", e);
    }
    this.label = "model " + name + ".";
  }

  // Dropped only once the slot is ejected; every call checks slot.ejected() before using d.
  @SuppressWarnings("NullAway")
  @Override
  public void release() {
    d = null;
  }

  private PreemptionModel fallback() {
    return Objects.requireNonNull(fallback, "no built-in model to fall back to");
  }

  PluginSlot slot() {
    return slot;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ReschedBit chooseBit(RqView rq, TaskView curr, ReschedReason reason) {
    if (!slot.ejected()) {
      ReschedBit bit = null;
      slot.enter(label + "chooseBit");
      try {
        bit = d.chooseBit(rq, curr, reason);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "chooseBit", e);
      } finally {
        slot.exit();
      }
      if (bit == null) {
        slot.fault(label + "chooseBit", "invariant violated: chose no resched bit (null)", null);
      }
      if (!slot.ejected()) {
        return Objects.requireNonNull(bit); // null faulted above, so the slot is ejected
      }
    }
    return fallback().chooseBit(rq, curr, reason);
  }

  @Override
  public boolean honours(PreemptPoint point, ReschedBit bit) {
    if (!slot.ejected()) {
      slot.enter(label + "honours");
      try {
        return d.honours(point, bit);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "honours", e);
      } finally {
        slot.exit();
      }
    }
    return fallback().honours(point, bit);
  }

  @Override
  public boolean tickUpgrade(RqView rq, TaskView curr) {
    if (!slot.ejected()) {
      slot.enter(label + "tickUpgrade");
      try {
        return d.tickUpgrade(rq, curr);
      } catch (RuntimeException | Error e) {
        slot.threw(label + "tickUpgrade", e);
      } finally {
        slot.exit();
      }
    }
    return fallback().tickUpgrade(rq, curr);
  }

  @Override
  public String toString() {
    return name + " (plugin " + slot.id() + ")";
  }
}
