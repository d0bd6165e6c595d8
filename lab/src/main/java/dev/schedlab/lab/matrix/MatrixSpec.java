package dev.schedlab.lab.matrix;

import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A parsed matrix file. The cells are the union of {@code blocks}, each a cartesian product of its
 * axes: one block for the {@code axes} form, one block of single values per entry of {@code cells:}
 * for the explicit form.
 *
 * @param name matrix name (the file name without extension when not given)
 * @param file the matrix file
 * @param out output directory from the file, or null
 * @param sets overrides for every cell, applied first
 * @param blocks products of axes whose cells make the matrix, in order
 * @param values value keys shown as columns of the summary ({@code metric.PATH}, {@code
 *     report.ID.PATH})
 */
public record MatrixSpec(
    String name,
    Path file,
    @Nullable Path out,
    List<String> sets,
    List<Axes> blocks,
    List<String> values) {
  public MatrixSpec {
    sets = List.copyOf(sets);
    blocks = List.copyOf(blocks);
    values = List.copyOf(values);
  }

  /**
   * The axes of one product. A null element in {@code machines}, {@code plugins} or {@code seeds}
   * keeps the scenario's own value.
   */
  record Axes(
      List<Workload> workloads,
      List<String> machines,
      List<ParamSet> params,
      List<PluginChoice> plugins,
      List<Long> seeds) {}
}
