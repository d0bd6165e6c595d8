package dev.schedlab.classes;

import dev.schedlab.api.SchedServices;

/**
 * Reads sched features from the engine's parameter table.
 *
 * <p>Models: the {@code sched_feat()} bits a class reads once in {@code init()}.
 *
 * <p>Does not model: run-time feature toggling.
 *
 * <p>Kernel reference: {@code kernel/sched/features.h}.
 */
final class Params {
  private Params() {}

  /** {@code sched_feat(NAME)}: on unless the table says 0 ({@code feature.NAME}). */
  static boolean feature(SchedServices services, String name) {
    return services.param("feature." + name) != 0;
  }
}
