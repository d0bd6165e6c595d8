package dev.schedlab.lab.matrix;

import dev.schedlab.engine.plugin.PluginHost;
import java.io.IOException;
import java.util.List;

/**
 * Where the cells of a matrix run: on this machine's cores ({@link LocalCellExecutor}) or on the
 * members of a cluster. {@link MatrixRunner} decides which cells run and records each result; the
 * executor only runs them. Whichever executor runs a cell, the cell is the same single-threaded
 * {@link MatrixRunner#runCell} with the same inputs, so its digest does not depend on where it ran.
 */
public interface CellExecutor {
  /**
   * One invocation's work.
   *
   * @param matrix the matrix name
   * @param cells every cell of the invocation (its share of the matrix), in order
   * @param todo the cells to run now: those of {@code cells} that the log does not hold yet
   * @param host the plugins the cells' plugin sets name
   */
  record Job(String matrix, List<Cell> cells, List<Cell> todo, PluginHost host) {
    public Job {
      cells = List.copyOf(cells);
      todo = List.copyOf(todo);
    }
  }

  /** Receives finished cells, one call at a time. */
  @FunctionalInterface
  interface Results {
    /** {@code cell} finished with {@code result}; the caller records it before returning. */
    void finished(Cell cell, CellResult result) throws IOException;
  }

  /**
   * Runs every cell of {@code job.todo()} and hands each result to {@code results} as it arrives,
   * from the calling thread; returns when every cell has been handed over.
   */
  void execute(Job job, Results results) throws IOException, InterruptedException;
}
