package dev.schedlab.api.plugin;

import dev.schedlab.api.IdlePolicy;
import dev.schedlab.api.PreemptionModel;
import dev.schedlab.api.SchedulingClass;

/** What a plugin hands to the engine in {@link SchedlabPlugin#contribute}. */
public interface Contributions {
  /** Overrides the exclusive hook point whose interface is {@code type}. */
  <H> void hook(Class<H> type, H implementation);

  /** Adds a scheduling class, ordered by its rank among the others. */
  void addSchedulingClass(SchedulingClass schedulingClass);

  /** Adds a preemption model that scenarios may name in {@code kernel.preempt}. */
  void addPreemptionModel(PreemptionModel model);

  /** Adds an idle policy that scenarios may name in {@code machine.idle_governor}. */
  void addIdlePolicy(IdlePolicy policy);
}
