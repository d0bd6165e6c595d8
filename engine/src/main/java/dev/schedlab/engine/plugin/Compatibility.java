package dev.schedlab.engine.plugin;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.PluginDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Which plugins may be enabled together, judged from their descriptors alone. */
final class Compatibility {
  private Compatibility() {}

  /** Why {@code a} and {@code b} declare a conflict (either direction), if they do. */
  static Optional<String> declaredConflict(PluginDescriptor a, PluginDescriptor b) {
    if (a.conflicts().contains(b.id())) {
      return Optional.of(
          "plugins " + a.id() + " and " + b.id() + " conflict (declared by " + a.id() + ")");
    }
    if (b.conflicts().contains(a.id())) {
      return Optional.of(
          "plugins " + a.id() + " and " + b.id() + " conflict (declared by " + b.id() + ")");
    }
    return Optional.empty();
  }

  /**
   * Why {@code a} and {@code b} cannot run together: a declared conflict or a shared exclusive
   * hook.
   */
  static Optional<String> clash(PluginDescriptor a, PluginDescriptor b) {
    Optional<String> declared = declaredConflict(a, b);
    if (declared.isPresent()) {
      return declared;
    }
    TreeSet<HookPoint> shared = new TreeSet<>();
    for (HookPoint p : a.hooks()) {
      if (p.exclusive() && b.hooks().contains(p)) {
        shared.add(p);
      }
    }
    return shared.isEmpty()
        ? Optional.empty()
        : Optional.of(
            "plugins "
                + a.id()
                + " and "
                + b.id()
                + " both use the exclusive hook "
                + shared.first());
  }

  /**
   * Every subset of {@code plugins} (sorted by id) with no clashing pair, the empty one included;
   * ordered by size, then lexicographically by ids.
   */
  static List<List<String>> allowedCombinations(List<PluginDescriptor> plugins) {
    List<PluginDescriptor> sorted =
        plugins.stream().sorted(Comparator.comparing(PluginDescriptor::id)).toList();
    int n = sorted.size();
    boolean[][] ok = new boolean[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        ok[i][j] = i != j && clash(sorted.get(i), sorted.get(j)).isEmpty();
      }
    }
    List<List<String>> out = new ArrayList<>();
    extend(sorted, ok, 0, new ArrayList<>(), new ArrayList<>(), out);
    out.sort(Comparator.<List<String>>comparingInt(List::size).thenComparing(Compatibility::lex));
    return List.copyOf(out);
  }

  private static void extend(
      List<PluginDescriptor> all,
      boolean[][] ok,
      int from,
      List<Integer> chosen,
      List<String> ids,
      List<List<String>> out) {
    out.add(List.copyOf(ids));
    for (int k = from; k < all.size(); k++) {
      boolean fits = true;
      for (int c : chosen) {
        fits &= ok[c][k];
      }
      if (fits) {
        chosen.add(k);
        ids.add(all.get(k).id());
        extend(all, ok, k + 1, chosen, ids, out);
        chosen.remove(chosen.size() - 1);
        ids.remove(ids.size() - 1);
      }
    }
  }

  private static int lex(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
