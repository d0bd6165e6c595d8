package dev.schedlab.lab.experiment;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Flattens nested metric and report maps into dotted paths with numeric values. */
final class Flat {
  private Flat() {}

  static Map<String, Double> numbers(String prefix, Object v) {
    Map<String, Double> out = new TreeMap<>();
    walk(prefix, v, out);
    return out;
  }

  private static void walk(String prefix, Object v, Map<String, Double> out) {
    if (v instanceof Map<?, ?> m) {
      m.forEach((k, x) -> walk(prefix.isEmpty() ? k.toString() : prefix + "." + k, x, out));
    } else if (v instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        walk(prefix + "[" + i + "]", l.get(i), out);
      }
    } else if (v instanceof Number n) {
      out.put(prefix, n.doubleValue());
    }
  }
}
