package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;
import static dev.schedlab.lab.workload.ToolArgs.Arg.REQUIRED;

import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code perf bench sched pipe}: two tasks ping-pong a 4-byte message over two pipes {@code -l}
 * times (default 1000000); processes, or threads with {@code -T}.
 *
 * <p>Models: task A writes pipe 1 (waking B) and reads pipe 2; B reads pipe 1 and writes pipe 2
 * (waking A); each write wakes the reader with WF_SYNC, as {@code pipe_write()} does ({@code
 * wake_up_interruptible_sync_poll()}); total time = when both have exited. As bench/sched-pipe.c
 * creates them: A forks B ({@code fork()}; A is {@code threads[1]}, B {@code threads[0]}), or with
 * {@code -T} the main thread creates B, then A ({@code pthread_create()}) and waits in {@code
 * pthread_join()}; the new tasks are placed as forks from their creator's CPU. Does not model:
 * cgroup placement ({@code -G}), the pipe's own locking, the fork's own cost.
 */
public final class PerfBenchSchedPipe implements WorkloadTool {
  static final ToolParam WRITE =
      ToolParam.ns(
          "pipe_write",
          600,
          "[estimate] pipe_write of 4 bytes; perf bench sched pipe ~4.4 us/op round trip"
              + " (kernel-model.md 2.1) includes two of these",
          "write path");
  static final ToolParam READ =
      ToolParam.ns(
          "pipe_read", 500, "[estimate] pipe_read of 4 bytes after the wakeup", "read path");

  static final List<ToolArgs.Opt> OPTS =
      List.of(ToolArgs.Opt.of("l", "loop", REQUIRED), ToolArgs.Opt.of("T", "threaded", NONE));

  @Override
  public String name() {
    return "perf";
  }

  @Override
  public String summary() {
    return "perf bench sched pipe: two tasks ping-pong over two pipes; usecs/op";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(WRITE, READ);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    if (!a.positionals().equals(List.of("bench", "sched", "pipe"))) {
      throw a.error(
          "only 'perf bench sched pipe [-l N] [-T]' is modelled, got '"
              + String.join(" ", a.positionals())
              + "'");
    }
    long loops = a.integer("loop", 1_000_000, 1, Integer.MAX_VALUE);
    String p1 = ctx.id() + "/pipe1";
    String p2 = ctx.id() + "/pipe2";
    boolean threaded = a.has("threaded");
    String a1 = ctx.id() + "/a";
    String b1 = ctx.id() + "/b";
    // worker_thread(): threads[1] writes first, threads[0] reads first
    List<StepSpec> writer = Tasks.runThenExit(loops, List.of(write(ctx, p1), read(ctx, p2)));
    List<StepSpec> reader = Tasks.runThenExit(loops, List.of(read(ctx, p1), write(ctx, p2)));
    List<TaskSpec> tasks = new ArrayList<>();
    if (threaded) {
      // pthread_create() of both workers, then pthread_join() (a wait nobody ends in the run)
      tasks.add(
          Tasks.normal(
              ctx.id(),
              "",
              List.of(
                  new StepSpec.Fork(b1, b1, -1, true),
                  new StepSpec.Fork(a1, a1, -1, true),
                  new StepSpec.Block(ctx.id() + "/join"))));
      tasks.add(Tasks.forked(a1, writer));
    } else {
      // fork(): the child runs threads[0], the parent threads[1], then waitpid()
      List<StepSpec> parent = new ArrayList<>();
      parent.add(new StepSpec.Fork(b1, b1, -1, false));
      parent.addAll(writer);
      tasks.add(Tasks.normal(a1, "", parent));
    }
    tasks.add(Tasks.forked(b1, reader));
    return new ToolExpansion(tasks, Map.of(), -1, new Report(loops, threaded));
  }

  /** write(): copy into the pipe, then wake the reader with WF_SYNC, in one syscall. */
  static StepSpec write(ToolContext ctx, String pipe) {
    return new StepSpec.Syscall(
        List.of(
            Tasks.kernel(Tasks.seg(ctx.param(WRITE), "MIGHT_RESCHED")),
            new StepSpec.Wake(pipe, true)));
  }

  /** read(): block until written, then copy out, in one syscall. */
  static StepSpec read(ToolContext ctx, String pipe) {
    return new StepSpec.Syscall(
        List.of(
            new StepSpec.Block(pipe), Tasks.kernel(Tasks.seg(ctx.param(READ), "MIGHT_RESCHED"))));
  }

  /** perf's sched/pipe summary; a run that ended before both tasks exited says so. */
  record Report(long loops, boolean threaded) implements ToolReport {
    /** Both tasks exited before the run's end. */
    private static boolean finished(RunResult r) {
      return Raw.counter(r, "task.exited") >= 2;
    }

    @Override
    public Map<String, Object> json(RunResult r) {
      double secs = Raw.counter(r, "task.last_exit_ns") / 1e9;
      Map<String, Object> m = new TreeMap<>();
      m.put("loops", loops);
      m.put("finished", finished(r));
      if (finished(r)) {
        m.put("total_time_s", Math.round(secs * 1e6) / 1e6);
        m.put("usecs_per_op", Math.round(secs * 1e6 / loops * 1e6) / 1e6);
        m.put("ops_per_sec", secs == 0 ? 0 : (long) (loops / secs));
      }
      return m;
    }

    @Override
    public String text(RunResult r) {
      String head =
          String.format(
              Locale.ROOT,
              "# Running 'sched/pipe' benchmark:%n"
                  + "# Executed %d pipe operations between two %s%n%n",
              loops,
              threaded ? "threads" : "processes");
      if (!finished(r)) {
        return head
            + String.format(
                Locale.ROOT,
                "     Not finished: the run ended (%.3f s simulated) before the %d round trips%n"
                    + "     were done; raise the scenario's duration or lower -l.%n",
                r.simNs() / 1e9,
                loops);
      }
      double secs = Raw.counter(r, "task.last_exit_ns") / 1e9;
      return head
          + String.format(
              Locale.ROOT,
              "     Total time: %.3f [sec]%n%n" + "%15f usecs/op%n" + "%13d ops/sec%n",
              secs,
              secs * 1e6 / loops,
              secs == 0 ? 0 : (long) (loops / secs));
    }
  }
}
