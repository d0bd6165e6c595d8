package dev.schedlab.engine.core;

import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.params.ParamTable;
import dev.schedlab.engine.sim.Event;

/**
 * The cost model: every path cost and tunable comes from the run's parameter table, and kernel-path
 * costs vary by {@code cost.jitter_pct} from the CPU's own stream.
 *
 * <p>Models: a guest's VM exit ({@code cost.vm_timer_exit}) when a clockevent reprogram changes the
 * CPU's earliest event (the local-APIC timer write traps to the host); nothing on bare metal.
 *
 * <p>Does not model: why a path's cost varies (cache state, branch history): the variation is a
 * uniform draw of {@code cost.jitter_pct} around the table value.
 *
 * <p>Kernel reference: {@code kernel/time/clockevents.c} ({@code clockevents_program_event}),
 * {@code arch/x86/kvm/lapic.c} (the emulated TSC-deadline timer).
 */
final class CostModel {
  private final ParamTable params;
  private final long jitterPct;
  private final boolean virtualized;

  CostModel(ParamTable params, boolean virtualized) {
    this.params = params;
    this.jitterPct = params.get(Param.COST_JITTER);
    this.virtualized = virtualized;
  }

  /** The value of {@code param} (ns for costs). */
  long p(Param param) {
    return params.get(param);
  }

  /** Whether the feature or 0/1 switch {@code param} is on. */
  boolean on(Param param) {
    return params.on(param);
  }

  /** The value of the parameter named {@code key} (a plugin's lookup). */
  long param(String key) {
    return params.get(key);
  }

  /**
   * Extra cost of reprogramming {@code cpu}'s clockevent for a timer due at {@code expiresNs}: a VM
   * exit in a guest when the timer becomes the CPU's earliest event, else nothing (on bare metal
   * the MSR write is part of the path costs).
   */
  long clockeventReprogramCost(Cpu cpu, long expiresNs) {
    if (!virtualized) {
      return 0;
    }
    long tick = cpu.tickEv.scheduled() ? cpu.tickEv.time() : Long.MAX_VALUE;
    return expiresNs < Math.min(tick, cpu.nextTimerNs()) ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /** A guest's clockevent reprogram that always happens (hrtimer interrupt exit). */
  long clockeventReprogramCost() {
    return virtualized ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /** Cancelling {@code ev} (still scheduled) on {@code cpu}: a VM exit if it was the next event. */
  long clockeventCancelCost(Cpu cpu, Event ev) {
    boolean wasNext = virtualized && ev.scheduled() && ev.time() < cpu.nextTimerNs();
    return wasNext ? p(Param.VM_TIMER_EXIT) : 0;
  }

  /**
   * {@code value} varied uniformly by +-{@code cost.jitter_pct} percent from {@code cpu}'s stream.
   */
  long jitter(Cpu cpu, long value) {
    long span = value * jitterPct / 100;
    return span <= 0 ? value : value - span + cpu.rng.nextLong(2 * span + 1);
  }
}
