package dev.schedlab.classes;

import dev.schedlab.api.view.TaskView;

/**
 * Orders what a CPU is running for the RT and DEADLINE wakeup-placement heuristics, in the spirit
 * of {@code cpupri}: idle below fair below RT (by priority) below DEADLINE below stop.
 *
 * <p>Models: the per-CPU "highest priority" that {@code cpupri_find()} and {@code cpudl_find()}
 * consult.
 *
 * <p>Does not model: pushable-task lists, root domains, capacity.
 *
 * <p>Kernel reference: {@code kernel/sched/cpupri.c}, {@code kernel/sched/cpudeadline.c}.
 */
final class CurrLevel {
  static final int IDLE = -2;
  static final int FAIR = -1;
  static final int DEADLINE = 150;
  static final int STOP = 200;

  private CurrLevel() {}

  /** The level of {@code curr}; RT tasks map to their priority 1..99. */
  static int of(TaskView curr) {
    if (curr == null || curr.isIdleTask()) {
      return IDLE;
    }
    return switch (curr.policy()) {
      case STOP -> STOP;
      case DEADLINE -> DEADLINE;
      case FIFO, RR -> curr.rtPriority();
      default -> FAIR;
    };
  }
}
