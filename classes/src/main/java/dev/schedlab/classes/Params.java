package dev.schedlab.classes;

import dev.schedlab.api.SchedServices;

/**
 * Reads the parameter table with a fallback, because the API has no {@code param(key, default)}.
 *
 * <p>Models: the sysctl/feature values a class reads once in {@code init()}. Does not model:
 * run-time sysctl changes. Kernel reference: {@code kernel/sched/features.h}, sysctls in
 * {@code core.c}, {@code fair.c}, {@code rt.c}.
 */
final class Params {
  private Params() {}

  /** The value of {@code key}, or {@code dflt} when the table does not know the key. */
  static long get(SchedServices services, String key, long dflt) {
    try {
      return services.param(key);
    } catch (RuntimeException unknownKey) {
      // An unknown key is not an error for a built-in class: the documented default applies.
      return dflt;
    }
  }

  /** A positive duration, or {@code dflt} when the key is unknown or not positive. */
  static long positive(SchedServices services, String key, long dflt) {
    long v = get(services, key, dflt);
    return v > 0 ? v : dflt;
  }

  /** {@code sched_feat(NAME)}: on unless the table says 0. All features read here default to on. */
  static boolean feature(SchedServices services, String name) {
    return get(services, "feature." + name, 1) != 0;
  }
}
