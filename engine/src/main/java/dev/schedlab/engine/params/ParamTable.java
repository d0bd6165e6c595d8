package dev.schedlab.engine.params;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Parameter values of one run: defaults from {@link Param} with scenario overrides applied. */
public final class ParamTable {
  private static final Map<String, Param> BY_KEY = new HashMap<>();

  static {
    for (Param p : Param.values()) {
      BY_KEY.put(p.key(), p);
    }
  }

  private final long[] values;

  private ParamTable(long[] values) {
    this.values = values;
  }

  /** Whether {@code key} names a parameter. */
  public static boolean isKnown(String key) {
    return BY_KEY.containsKey(key);
  }

  /** Every parameter key, sorted. */
  public static java.util.SortedSet<String> keys() {
    return new java.util.TreeSet<>(BY_KEY.keySet());
  }

  /**
   * Defaults with {@code params} (by key) and {@code features} (by feature name) applied.
   *
   * @throws IllegalArgumentException naming an unknown key
   */
  public static ParamTable of(Map<String, Long> params, Map<String, Boolean> features) {
    return of(Map.of(), params, features);
  }

  /**
   * Defaults, then {@code machineDefaults} (what the machine changes about them, such as its
   * mitigations' costs), then {@code params} and {@code features}.
   *
   * @throws IllegalArgumentException naming an unknown key
   */
  public static ParamTable of(
      Map<String, Long> machineDefaults, Map<String, Long> params, Map<String, Boolean> features) {
    long[] v = new long[Param.values().length];
    for (Param p : Param.values()) {
      v[index(p)] = p.defaultValue();
    }
    for (Map.Entry<String, Long> e : machineDefaults.entrySet()) {
      v[index(lookup(e.getKey()))] = e.getValue();
    }
    for (Map.Entry<String, Long> e : new TreeMap<>(params).entrySet()) {
      Param p = lookup(e.getKey());
      // Costs, counts and flags are never negative; a negative value is a typo, not a model.
      if (e.getValue() < 0) {
        throw new IllegalArgumentException(
            "parameter '"
                + e.getKey()
                + "': expected a value >= 0 ("
                + p.unit().name().toLowerCase(java.util.Locale.ROOT)
                + "), got "
                + e.getValue());
      }
      v[index(p)] = e.getValue();
    }
    for (Map.Entry<String, Boolean> e : new TreeMap<>(features).entrySet()) {
      v[index(lookup("feature." + e.getKey()))] = e.getValue() ? 1 : 0;
    }
    return new ParamTable(v);
  }

  /** Defaults only. */
  public static ParamTable defaults() {
    return of(Map.of(), Map.of());
  }

  private static Param lookup(String key) {
    Param p = BY_KEY.get(key);
    if (p == null) {
      throw new IllegalArgumentException("unknown parameter '" + key + "'; known: " + keys());
    }
    return p;
  }

  /** {@code p}'s slot: the values are a dense array by parameter, read on every cost lookup. */
  @SuppressWarnings("EnumOrdinal")
  private static int index(Param p) {
    return p.ordinal();
  }

  /** Value of {@code p}. */
  public long get(Param p) {
    return values[index(p)];
  }

  /** Whether the feature {@code p} is on. */
  public boolean on(Param p) {
    return values[index(p)] != 0;
  }

  /** Value by key. */
  public long get(String key) {
    return values[index(lookup(key))];
  }

  /** All values by key, sorted, for the result's record of what ran. */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new TreeMap<>();
    for (Param p : Param.values()) {
      m.put(p.key(), values[index(p)]);
    }
    return m;
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
