package dev.schedlab.api;

/** Load weights of fair tasks: {@code sched_prio_to_weight[]} and {@code WEIGHT_IDLEPRIO}. */
public final class LoadWeights {
  /** Weight of a SCHED_IDLE task ({@code WEIGHT_IDLEPRIO}). */
  public static final int IDLE_POLICY = 3;

  // [src] kernel/sched/core.c sched_prio_to_weight[], nice -20..19
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

  private LoadWeights() {}

  /** The weight of nice level {@code nice} (-20..19); nice 0 is 1024. */
  public static int ofNice(int nice) {
    return PRIO_TO_WEIGHT[nice + 20];
  }

  /** A task's weight: {@link #IDLE_POLICY} under SCHED_IDLE, else that of its nice level. */
  public static int of(Policy policy, int nice) {
    return policy == Policy.IDLE ? IDLE_POLICY : ofNice(nice);
  }
}
