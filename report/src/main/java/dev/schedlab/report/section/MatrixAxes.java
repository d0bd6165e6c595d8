package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.MatrixView;
import dev.schedlab.report.ReportInputException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The axes of a matrix heatmap: across ({@code x}), down ({@code y}) and the other axes that vary
 * ({@code panels}, one heatmap per combination). Seeds are averaged unless chosen as an axis.
 * Without a choice, the varying axes with the most levels come first, seed last.
 *
 * @param x axis across
 * @param y axis down
 * @param panels other varying axes (never seed)
 */
record MatrixAxes(String x, String y, List<String> panels) {
  static final List<String> ALL = List.of("workload", "machine", "params", "plugins", "seed");

  static MatrixAxes of(JsonNode cells, MatrixView view) throws ReportInputException {
    for (String a : new String[] {view.x(), view.y()}) {
      if (a != null && !ALL.contains(a)) {
        throw new ReportInputException(
            "unknown matrix axis '" + a + "': expected one of " + String.join(", ", ALL));
      }
    }
    if (view.x() != null && view.x().equals(view.y())) {
      throw new ReportInputException(
          "the heatmap needs two different axes, got " + view.x() + " twice");
    }
    List<String> varying = new ArrayList<>();
    for (String a : ALL) {
      if (levels(cells, a).size() > 1) {
        varying.add(a);
      }
    }
    varying.sort(
        Comparator.comparingInt((String a) -> a.equals("seed") ? 1 : 0)
            .thenComparingInt(a -> -levels(cells, a).size()));
    List<String> order = new ArrayList<>(varying);
    for (String a : ALL) {
      if (!order.contains(a)) {
        order.add(a);
      }
    }
    String x = view.x();
    String y = view.y();
    for (String a : order) {
      if (x == null && !a.equals(y)) {
        x = a;
      } else if (y == null && !a.equals(x)) {
        y = a;
      }
    }
    List<String> panels = new ArrayList<>();
    for (String a : varying) {
      if (!a.equals(x) && !a.equals(y) && !a.equals("seed")) {
        panels.add(a);
      }
    }
    return new MatrixAxes(Objects.requireNonNull(x), Objects.requireNonNull(y), panels); // picked
  }

  /** The levels of {@code axis} in order of first appearance. */
  static List<String> levels(JsonNode cells, String axis) {
    LinkedHashSet<String> s = new LinkedHashSet<>();
    cells.forEach(c -> s.add(c.path(axis).asText()));
    return new ArrayList<>(s);
  }
}
