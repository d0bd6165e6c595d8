package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * {@code schedlab-probe}: the calibration micro-benchmarks that {@code schedlab host --calibrate}
 * runs on the host (the C program shipped with the host module), modelled with the same arguments
 * so that a measured figure and its simulated twin come from the same loop.
 *
 * <p>Models: {@code syscall N} (getppid() N times), {@code pipe A B N} (two processes pinned to A
 * and B ping-pong one byte over two pipes; a write copies then wakes the reader with WF_SYNC in the
 * same syscall), {@code wake A B N GAP BUSY} (a writer on A sleeps GAP ns, stamps the clock and
 * writes it; the reader on B, blocked in read(), records the delay, and the writer how long its
 * write() took, {@code write_p50}; with BUSY a SCHED_IDLE spinner keeps B busy, so that write sends
 * the reschedule IPI), {@code timer CPU N SLEEP BUSY} (relative sleeps of SLEEP ns and how late
 * they return). The measuring tasks have a 1 ns timer slack, as the probe sets with prctl(). Does
 * not model: the probe's own start-up, the repetitions whose median syscall and pipe report.
 */
public final class SchedlabProbe implements WorkloadTool {
  static final ToolParam GETPPID =
      ToolParam.ns(
          "getppid",
          30,
          "[estimate] sys_getppid(): rcu_read_lock, task_tgid_vnr(current->real_parent)",
          "kernel work of one getppid()");
  static final ToolParam LOOP =
      ToolParam.ns(
          "loop_user",
          2,
          "[estimate] the probe's loop around each syscall (a compare, a branch, a call)",
          "user work per iteration");
  static final ToolParam CLOCK =
      ToolParam.ns(
          "clock_read",
          30,
          "[estimate] clock_gettime(CLOCK_MONOTONIC) through the vDSO (kvm-clock or TSC)",
          "user work to read the clock");

  private static final long SLACK_NS = 1; // prctl(PR_SET_TIMERSLACK, 1)
  private static final List<ToolArgs.Opt> OPTS = List.of(ToolArgs.Opt.of("q", "quiet", NONE));

  @Override
  public String name() {
    return "schedlab-probe";
  }

  @Override
  public String summary() {
    return "schedlab-probe: the host calibration micro-benchmarks (syscall, pipe, wake, timer)";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(GETPPID, LOOP, CLOCK, PerfBenchSchedPipe.WRITE, PerfBenchSchedPipe.READ);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    List<String> p = a.positionals();
    String mode = p.isEmpty() ? "" : p.get(0);
    return switch (mode) {
      case "syscall" -> syscall(ctx, args(a, p, 1));
      case "pipe" -> pipe(ctx, args(a, p, 3));
      case "wake" -> wake(ctx, args(a, p, 5));
      case "timer" -> timer(ctx, args(a, p, 4));
      default ->
          throw a.error(
              "expected syscall N | pipe A B N | wake A B N GAP BUSY | timer CPU N SLEEP "
                  + "BUSY, got '"
                  + String.join(" ", p)
                  + "'");
    };
  }

  private static long[] args(ToolArgs a, List<String> p, int n) throws ToolArgsException {
    if (p.size() != n + 1) {
      throw a.error(p.get(0) + " takes " + n + " numbers, got " + (p.size() - 1));
    }
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      try {
        out[i] = Long.parseLong(p.get(i + 1));
      } catch (NumberFormatException e) {
        throw a.error("expected a number, got '" + p.get(i + 1) + "'");
      }
      if (out[i] < 0) {
        throw a.error("expected a number >= 0, got " + out[i]);
      }
    }
    return out;
  }

  private static String cpu(ToolContext ctx, long cpu) throws ToolArgsException {
    if (cpu >= ctx.nrCpus()) {
      throw new ToolArgsException(
          "schedlab-probe: CPU " + cpu + " is not on this machine (" + ctx.nrCpus() + " CPUs)");
    }
    return Long.toString(cpu);
  }

  private static ToolExpansion syscall(ToolContext ctx, long[] v) {
    StepSpec call = new StepSpec.Syscall(List.of(kernel(ctx.param(GETPPID))));
    TaskSpec t =
        Tasks.normal(
            ctx.id(), "0", Tasks.runThenExit(v[0], List.of(Tasks.user(ctx.param(LOOP)), call)));
    return new ToolExpansion(List.of(t), Map.of(), -1, new Report("syscall", v[0], null, null));
  }

  private static ToolExpansion pipe(ToolContext ctx, long[] v) throws ToolArgsException {
    String p1 = ctx.id() + "/pipe1";
    String p2 = ctx.id() + "/pipe2";
    TaskSpec a =
        Tasks.normal(
            ctx.id() + "/a",
            cpu(ctx, v[0]),
            Tasks.runThenExit(
                v[2],
                List.of(
                    Tasks.user(ctx.param(LOOP)),
                    PerfBenchSchedPipe.write(ctx, p1),
                    PerfBenchSchedPipe.read(ctx, p2))));
    TaskSpec b =
        Tasks.normal(
            ctx.id() + "/b",
            cpu(ctx, v[1]),
            Tasks.runThenExit(
                v[2],
                List.of(
                    PerfBenchSchedPipe.read(ctx, p1),
                    Tasks.user(ctx.param(LOOP)),
                    PerfBenchSchedPipe.write(ctx, p2))));
    return new ToolExpansion(List.of(a, b), Map.of(), -1, new Report("pipe", v[2], null, null));
  }

  private static ToolExpansion wake(ToolContext ctx, long[] v) throws ToolArgsException {
    String q = ctx.id() + "/pipe";
    String stamp = ctx.id() + "/sent";
    String series = ctx.id() + ".wake";
    String writes = ctx.id() + ".write";
    List<TaskSpec> tasks = new ArrayList<>();
    tasks.add(
        Tasks.normal(
                ctx.id() + "/writer",
                cpu(ctx, v[0]),
                Tasks.runThenExit(
                    v[2],
                    List.of(
                        new StepSpec.Sleep(Dist.fixed(v[3])),
                        Tasks.user(ctx.param(CLOCK)),
                        new StepSpec.Stamp(stamp),
                        PerfBenchSchedPipe.write(ctx, q),
                        Tasks.user(ctx.param(CLOCK)),
                        new StepSpec.Since(stamp, writes))))
            .withTimerSlack(SLACK_NS));
    tasks.add(
        Tasks.normal(
            ctx.id() + "/reader",
            cpu(ctx, v[1]),
            Tasks.runThenExit(
                v[2],
                List.of(
                    PerfBenchSchedPipe.read(ctx, q),
                    Tasks.user(ctx.param(CLOCK)),
                    new StepSpec.Since(stamp, series)))));
    if (v[4] != 0) {
      tasks.add(spinner(ctx, cpu(ctx, v[1]), v[2] * (v[3] + 100_000)));
    }
    int raw = (int) Math.min(v[2], Raw.MAX_RAW);
    return new ToolExpansion(
        tasks, Map.of(series, raw, writes, raw), -1, new Report("wake", v[2], series, writes));
  }

  private static ToolExpansion timer(ToolContext ctx, long[] v) throws ToolArgsException {
    String series = ctx.id() + ".timer";
    List<TaskSpec> tasks = new ArrayList<>();
    tasks.add(
        Tasks.normal(
                ctx.id(),
                cpu(ctx, v[0]),
                Tasks.runThenExit(
                    v[1],
                    List.of(
                        Tasks.user(ctx.param(CLOCK)),
                        new StepSpec.Sleep(Dist.fixed(v[2]), series))))
            .withTimerSlack(SLACK_NS));
    if (v[3] != 0) {
      tasks.add(spinner(ctx, cpu(ctx, v[0]), v[1] * (v[2] + 100_000)));
    }
    return new ToolExpansion(
        tasks,
        Map.of(series, (int) Math.min(v[1], Raw.MAX_RAW)),
        -1,
        new Report("timer", v[1], series, null));
  }

  /** The SCHED_IDLE spinner, for about as long as the measurement runs. */
  private static TaskSpec spinner(ToolContext ctx, String cpu, long ns) {
    return Tasks.withPolicy(
        ctx.id() + "/spin",
        "idle",
        0,
        0,
        cpu,
        false,
        Tasks.runThenExit(1, List.of(Tasks.user(ns))));
  }

  private static StepSpec kernel(long ns) {
    return Tasks.kernel(Tasks.seg(ns, "NONE"));
  }

  /** The probe's key=value lines; {@code writes}: the wake writer's write() times. */
  record Report(String mode, long n, @Nullable String series, @Nullable String writes)
      implements ToolReport {
    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      long end = Raw.counter(r, "task.last_exit_ns");
      switch (mode) {
        case "syscall" -> m.put("ns_per_call", end / n);
        case "pipe" -> m.put("ns_per_roundtrip", end / n);
        default -> {
          long[] v = Raw.samples(r, Objects.requireNonNull(series)).clone();
          Arrays.sort(v);
          m.put("samples", (long) v.length);
          if (v.length > 0) {
            m.put("p10", v[v.length * 10 / 100]);
            m.put("p50", v[v.length / 2]);
            m.put("p90", v[v.length * 90 / 100]);
            m.put("p99", v[v.length * 99 / 100]);
            m.put("max", v[v.length - 1]);
          }
          if (writes != null) {
            long[] w = Raw.samples(r, writes).clone();
            Arrays.sort(w);
            if (w.length > 0) {
              m.put("write_p50", w[w.length / 2]);
            }
          }
        }
      }
      return m;
    }

    @Override
    public String text(RunResult r) {
      StringBuilder sb = new StringBuilder();
      json(r).forEach((k, v) -> sb.append(String.format(Locale.ROOT, "%s=%s%n", k, v)));
      return sb.toString();
    }
  }
}
