package dev.schedlab.classes;

/**
 * The virtual-time scaling of the fair class. Task weights ({@code sched_prio_to_weight[]}, {@code
 * WEIGHT_IDLEPRIO} = 3 for SCHED_IDLE) come from the engine via {@code TaskView.weight()}.
 *
 * <p>Models: {@code calc_delta_fair()} as the exact quotient {@code delta * 1024 / w}. Does not
 * model: the kernel's 32-bit inverse-weight fixed point ({@code __calc_delta}), whose rounding
 * differs in the last few ns; the 64-bit load-resolution shift (weights are the table values, i.e.
 * after {@code scale_load_down}).
 *
 * <p>Kernel reference: {@code kernel/sched/fair.c} ({@code calc_delta_fair}).
 */
final class FairWeights {
  static final int NICE_0_LOAD = 1024;

  private FairWeights() {}

  /** {@code calc_delta_fair()}: real time to virtual time for weight {@code w}. */
  static long calcDeltaFair(long delta, int w) {
    return w == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / w;
  }
}
