package dev.schedlab.report.section;

import com.fasterxml.jackson.databind.JsonNode;
import dev.schedlab.report.chart.Heatmap;
import dev.schedlab.report.html.Blocks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/** The heatmap panels of a matrix value: means over the cells of each (x, y, panel) group. */
final class MatrixHeatmaps {
  private MatrixHeatmaps() {}

  static String html(JsonNode cells, String value, MatrixAxes axes) {
    List<String> xs = MatrixAxes.levels(cells, axes.x());
    List<String> ys = MatrixAxes.levels(cells, axes.y());
    LinkedHashSet<List<String>> panels = new LinkedHashSet<>();
    cells.forEach(c -> panels.add(panelKey(c, axes)));
    List<double[][]> sums = new ArrayList<>();
    List<int[][]> counts = new ArrayList<>();
    List<List<String>> keys = new ArrayList<>(panels);
    for (int p = 0; p < keys.size(); p++) {
      sums.add(new double[ys.size()][xs.size()]);
      counts.add(new int[ys.size()][xs.size()]);
    }
    for (JsonNode c : cells) {
      JsonNode v =
          value.equals("events") || value.equals("sim_ns")
              ? c.get(value)
              : c.path("values").get(value);
      if (v == null || !v.isNumber() || !"ok".equals(c.path("status").asText())) {
        continue;
      }
      int p = keys.indexOf(panelKey(c, axes));
      int i = xs.indexOf(c.path(axes.x()).asText());
      int j = ys.indexOf(c.path(axes.y()).asText());
      sums.get(p)[j][i] += v.asDouble();
      counts.get(p)[j][i]++;
    }
    double lo = Double.MAX_VALUE;
    double hi = -Double.MAX_VALUE;
    for (int p = 0; p < keys.size(); p++) {
      for (int j = 0; j < ys.size(); j++) {
        for (int i = 0; i < xs.size(); i++) {
          int n = counts.get(p)[j][i];
          sums.get(p)[j][i] = n == 0 ? Double.NaN : sums.get(p)[j][i] / n;
          if (n > 0) {
            lo = Math.min(lo, sums.get(p)[j][i]);
            hi = Math.max(hi, sums.get(p)[j][i]);
          }
        }
      }
    }
    StringBuilder b = new StringBuilder(Blocks.h(3, "Heatmap of " + value));
    boolean seedsAveraged =
        !axes.x().equals("seed")
            && !axes.y().equals("seed")
            && MatrixAxes.levels(cells, "seed").size() > 1;
    for (int p = 0; p < keys.size(); p++) {
      StringBuilder title = new StringBuilder(value + " by " + axes.x() + " and " + axes.y());
      for (int k = 0; k < axes.panels().size(); k++) {
        title
            .append(k == 0 ? ", " : "; ")
            .append(axes.panels().get(k))
            .append(' ')
            .append(keys.get(p).get(k));
      }
      b.append(
          Blocks.figure(
              Heatmap.of(
                  title.toString(),
                  axes.x(),
                  xs,
                  axes.y(),
                  ys,
                  sums.get(p),
                  counts.get(p),
                  lo == Double.MAX_VALUE ? 0 : lo,
                  hi == -Double.MAX_VALUE ? 0 : hi,
                  (seedsAveraged
                          ? "Each cell is the mean over the seeds of the matrix cells it groups"
                          : "Each cell is the value of the matrix cell it groups (the mean if several)")
                      + "; failed cells are left out, '-' marks a group without a value. The colour scale"
                      + " is shared by all panels. Choose the value and axes with schedlab report --value"
                      + " NAME --axes X,Y.")));
    }
    return b.toString();
  }

  private static List<String> panelKey(JsonNode c, MatrixAxes axes) {
    List<String> k = new ArrayList<>();
    axes.panels().forEach(a -> k.add(c.path(a).asText()));
    return k;
  }
}
