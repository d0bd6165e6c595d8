package dev.schedlab.engine.matrix;

import java.io.IOException;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** Runs cells on this machine, {@code jobs} at a time, each on a thread of its own. */
public final class LocalCellExecutor implements CellExecutor {
  private final int jobs;

  /** An executor running {@code jobs} cells at once (at least one). */
  public LocalCellExecutor(int jobs) {
    this.jobs = Math.max(1, jobs);
  }

  @Override
  public void execute(Job job, Results results) throws IOException, InterruptedException {
    AtomicInteger threads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
      Thread t = new Thread(r, "schedlab-matrix-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    try {
      CompletionService<Object[]> done = new ExecutorCompletionService<>(pool);
      for (Cell c : job.todo()) {
        done.submit(() -> new Object[] {c, MatrixRunner.runCell(c, job.host())});
      }
      for (int i = 0; i < job.todo().size(); i++) {
        Object[] finished;
        try {
          finished = done.take().get();
        } catch (ExecutionException e) {
          throw new IllegalStateException("a matrix cell escaped its error handling", e.getCause());
        }
        results.finished((Cell) finished[0], (CellResult) finished[1]);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
