package dev.schedlab.lab.matrix;

import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Runs cells on this machine, {@code jobs} at a time, each on a thread of its own ({@link
 * MatrixRunner#start}). A cell whose plugin call exceeds its wall-clock budget counts as finished
 * (failed) at once and the next cell starts, so the others go on at the same parallelism while the
 * stuck thread is abandoned.
 */
public final class LocalCellExecutor implements CellExecutor {
  private final int jobs;

  /** An executor running {@code jobs} cells at once (at least one). */
  public LocalCellExecutor(int jobs) {
    this.jobs = Math.max(1, jobs);
  }

  private record Finished(Cell cell, CellResult result) {}

  @Override
  public void execute(Job job, Results results) throws IOException, InterruptedException {
    BlockingQueue<Finished> done = new LinkedBlockingQueue<>();
    Iterator<Cell> next = job.todo().iterator();
    for (int i = 0; i < jobs && next.hasNext(); i++) {
      start(next.next(), job, done);
    }
    for (int i = 0; i < job.todo().size(); i++) {
      Finished f = done.take();
      if (next.hasNext()) {
        start(next.next(), job, done);
      }
      results.finished(f.cell(), f.result());
    }
  }

  private static void start(Cell c, Job job, BlockingQueue<Finished> done) {
    var unused = MatrixRunner.start(c, job.host()).thenAccept(r -> done.add(new Finished(c, r)));
  }
}
