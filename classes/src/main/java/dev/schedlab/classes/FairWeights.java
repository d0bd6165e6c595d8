package dev.schedlab.classes;

import dev.schedlab.api.Policy;
import dev.schedlab.api.view.TaskView;

/**
 * Load weights and the virtual-time scaling of the fair class.
 *
 * <p>Models: {@code sched_prio_to_weight[]} (nice -20..19), {@code WEIGHT_IDLEPRIO} = 3 for
 * SCHED_IDLE, and {@code calc_delta_fair()} as the exact quotient {@code delta * 1024 / w}.
 * Does not model: the kernel's 32-bit inverse-weight fixed point ({@code __calc_delta}), whose
 * rounding differs in the last few ns; the 64-bit load-resolution shift (weights are the table
 * values, i.e. after {@code scale_load_down}).
 *
 * <p>Kernel reference: {@code kernel/sched/core.c} ({@code sched_prio_to_weight}),
 * {@code kernel/sched/fair.c} ({@code calc_delta_fair}).
 */
final class FairWeights {
  static final int NICE_0_LOAD = 1024;
  static final int WEIGHT_IDLEPRIO = 3;

  private static final int[] PRIO_TO_WEIGHT = {
    /* -20 */ 88761, 71755, 56483, 46273, 36291,
    /* -15 */ 29154, 23254, 18705, 14949, 11916,
    /* -10 */ 9548, 7620, 6100, 4904, 3906,
    /*  -5 */ 3121, 2501, 1991, 1586, 1277,
    /*   0 */ 1024, 820, 655, 526, 423,
    /*   5 */ 335, 272, 215, 172, 137,
    /*  10 */ 110, 87, 70, 56, 45,
    /*  15 */ 36, 29, 23, 18, 15,
  };

  private FairWeights() {}

  /** Weight of a nice level, clamped to -20..19. */
  static int ofNice(int nice) {
    return PRIO_TO_WEIGHT[Math.max(-20, Math.min(19, nice)) + 20];
  }

  /** Weight of {@code p}: SCHED_IDLE tasks get 3, others the table value of their nice. */
  static int of(TaskView p) {
    return p.policy() == Policy.IDLE ? WEIGHT_IDLEPRIO : ofNice(p.nice());
  }

  /** {@code calc_delta_fair()}: real time to virtual time for weight {@code w}. */
  static long calcDeltaFair(long delta, int w) {
    return w == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / w;
  }
}
