package dev.schedlab.lab.matrix;

import java.util.List;

/**
 * One entry of the params axis: {@code --set} overrides applied together.
 *
 * @param label name shown in tables (given, or the overrides joined with spaces, or {@code -})
 * @param sets overrides in the order applied
 */
public record ParamSet(String label, List<String> sets) {
  /** The empty set: the scenario as written. */
  static final ParamSet NONE = new ParamSet("-", List.of());

  public ParamSet {
    sets = List.copyOf(sets);
  }

  /** A set named after its overrides. */
  static ParamSet of(List<String> sets) {
    return sets.isEmpty() ? NONE : new ParamSet(String.join(" ", sets), sets);
  }
}
