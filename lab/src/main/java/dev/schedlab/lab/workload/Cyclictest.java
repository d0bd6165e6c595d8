package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;
import static dev.schedlab.lab.workload.ToolArgs.Arg.OPTIONAL;
import static dev.schedlab.lab.workload.ToolArgs.Arg.REQUIRED;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * cyclictest (rt-tests): measurement threads that sleep with {@code clock_nanosleep(TIMER_ABSTIME)}
 * to the next multiple of their interval and record expiry-to-user-space latency.
 *
 * <p>Models: thread k with interval {@code i + k*d} (the same interval for all with {@code -h}),
 * policy from {@code -p}/{@code --policy} (priority 0 = SCHED_OTHER), thread k pinned to the (k mod
 * n)-th CPU of {@code -a}'s list or of all CPUs (rt-tests 2.x pins the threads also without {@code
 * -a}; the main thread is not pinned), {@code -t}, {@code -l}, {@code -D}, PM QoS {@code --latency}
 * (0 when not given, as cyclictest writes 0 to {@code /dev/cpu_dma_latency}); after each wakeup the
 * thread's own user work (clock_gettime, statistics); the main thread, waking every 10 ms ({@code
 * usleep(10000)}) to look at the statistics. Does not model: {@code -m} (mlockall: no page faults
 * are modelled anyway), signals/timer modes other than clock_nanosleep, tracing options, the main
 * thread's output without {@code -q}.
 */
public final class Cyclictest implements WorkloadTool {
  static final ToolParam USER_WORK =
      ToolParam.ns(
          "user_work",
          1_500,
          "[estimate] clock_gettime (vDSO) + statistics update + loop, ~1-2 us",
          "user-space work per cycle after the wakeup");

  static final ToolParam MAIN_WORK =
      ToolParam.ns(
          "main_work",
          2_000,
          "[estimate] the main thread's loop: checks each thread's statistics (print_stat(), which "
              + "prints nothing with -q), then usleep(10000)",
          "main thread's work per 10 ms");

  /** rt-tests cyclictest.c main(): {@code usleep(10000)} between passes over the threads. */
  static final long MAIN_PERIOD_NS = 10_000_000;

  static final List<ToolArgs.Opt> OPTS =
      List.of(
          ToolArgs.Opt.of("i", "interval", REQUIRED),
          ToolArgs.Opt.of("d", "distance", REQUIRED),
          ToolArgs.Opt.of("t", "threads", OPTIONAL),
          ToolArgs.Opt.of("p", "priority", REQUIRED),
          ToolArgs.Opt.of(null, "policy", REQUIRED),
          ToolArgs.Opt.of("a", "affinity", OPTIONAL),
          ToolArgs.Opt.of("m", "mlockall", NONE),
          ToolArgs.Opt.of(null, "latency", REQUIRED),
          ToolArgs.Opt.of("l", "loops", REQUIRED),
          ToolArgs.Opt.of("D", "duration", REQUIRED),
          ToolArgs.Opt.of("h", "histogram", REQUIRED),
          ToolArgs.Opt.of("q", "quiet", NONE),
          ToolArgs.Opt.of("n", "nanosleep", NONE),
          ToolArgs.Opt.of("N", "nsecs", NONE),
          ToolArgs.Opt.of("S", "smp", NONE));

  @Override
  public String name() {
    return "cyclictest";
  }

  @Override
  public String summary() {
    return "rt-tests cyclictest: periodic absolute clock_nanosleep threads, wakeup latency";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(USER_WORK, MAIN_WORK);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    int ncpus = ctx.nrCpus();
    long intervalUs = a.integer("interval", 1000, 1, 10_000_000);
    long distanceUs = a.integer("distance", 500, 0, 10_000_000);
    boolean smp = a.has("smp");
    int threads = 1;
    if (a.has("threads") || smp) {
      String t = a.text("threads", "");
      threads = t.isEmpty() ? ncpus : (int) a.integerOf("-t", t, 1, 4096);
    }
    int prio = (int) a.integer("priority", 0, 0, 99);
    String policy =
        a.choice(
            "policy",
            prio > 0 ? "fifo" : "other",
            "other",
            "normal",
            "batch",
            "idle",
            "fifo",
            "rr");
    if (policy.equals("other")) {
      policy = "normal";
    }
    if ((policy.equals("fifo") || policy.equals("rr")) && prio == 0) {
      policy = "normal"; // cyclictest forces SCHED_OTHER for priority 0
    }
    boolean rt = policy.equals("fifo") || policy.equals("rr");
    // rt-tests 2.x pins every measurement thread: a CPU list from -a, otherwise all CPUs
    // (AFFINITY_USEALL also without -a or --smp, since 105037e "Set affinity before applying
    // numa", v1.6, made unconditional by 3aec580e, v2.0; --smp ignores -a's list); thread k
    // takes the (k mod n)-th CPU.
    String set = a.has("affinity") && !smp ? a.text("affinity", "") : "";
    BitSet cpus;
    try {
      cpus = set.isEmpty() ? allCpus(ncpus) : CpuList.parse(set, ncpus);
    } catch (IllegalArgumentException e) {
      throw a.error("-a: " + e.getMessage());
    }
    List<Integer> pinTo = cpus.stream().boxed().toList();
    long loops = a.integer("loops", 0, 0, Long.MAX_VALUE);
    long durNs = a.has("duration") ? a.timeNs("duration", 0, 1_000_000_000L) : 0;
    long histUs = a.integer("histogram", 0, 0, 10_000_000);
    long latency = a.has("latency") ? a.integer("latency", 0, 0, 2_000_000_000) * 1000 : 0;
    long work = ctx.param(USER_WORK);

    List<TaskSpec> tasks = new ArrayList<>();
    Map<String, Integer> caps = new TreeMap<>();
    List<Long> intervals = new ArrayList<>();
    long interval = intervalUs;
    for (int k = 0; k < threads; k++) {
      long periodNs = interval * 1000;
      intervals.add(interval);
      if (histUs == 0) {
        interval += distanceUs;
      }
      long cycles = loops;
      if (durNs > 0) {
        long byDur = durNs / periodNs;
        cycles = cycles == 0 ? byDur : Math.min(cycles, byDur);
      }
      String series = series(ctx.id(), k);
      List<StepSpec> body = List.of(new StepSpec.SleepUntil(periodNs, series), Tasks.user(work));
      List<StepSpec> program = new ArrayList<>();
      // Threads start at an arbitrary phase relative to the tick (next = now + interval at thread
      // start): a first wait drawn from the thread's own stream, within one tick period.
      program.add(new StepSpec.Sleep(new Dist(Dist.Kind.UNIFORM, 0, ctx.tickNs())));
      program.addAll(
          cycles > 0
              ? Tasks.runThenExit(cycles, body)
              : List.of(new StepSpec.Loop(Integer.MAX_VALUE, body)));
      String cpu = Integer.toString(pinTo.get(k % pinTo.size()));
      tasks.add(
          Tasks.withPolicy(ctx.id() + "/" + k, policy, 0, rt ? prio : 0, cpu, false, program));
      int cap =
          cycles > 0
              ? (int) Math.min(cycles, Raw.MAX_RAW)
              : Raw.periodicCap(ctx.durationNs(), periodNs);
      caps.put(series, cap);
    }
    tasks.add(mainThread(ctx, threadsEndNs(loops, durNs, intervals)));
    Report report =
        new Report(
            ctx.id(),
            intervals,
            rt ? prio : 0,
            histUs,
            a.has("nsecs"),
            a.has("latency") ? latency / 1000 : 0);
    return new ToolExpansion(tasks, caps, latency, report);
  }

  /**
   * The main thread (SCHED_OTHER, any CPU): after starting the measurement threads it loops over
   * their statistics and {@code usleep(10000)}s until they are done; it exits with them.
   */
  private static TaskSpec mainThread(ToolContext ctx, long endNs) {
    List<StepSpec> body =
        List.of(new StepSpec.Sleep(Dist.fixed(MAIN_PERIOD_NS)), Tasks.user(ctx.param(MAIN_WORK)));
    List<StepSpec> program =
        endNs > 0
            ? Tasks.runThenExit(endNs / MAIN_PERIOD_NS + 1, body)
            : List.of(new StepSpec.Loop(Integer.MAX_VALUE, body));
    return Tasks.withPolicy(ctx.id() + "/main", "normal", 0, 0, "", false, program);
  }

  /** When the last measurement thread is done ({@code -l}, {@code -D}), or 0 for never. */
  private static long threadsEndNs(long loops, long durNs, List<Long> intervalsUs) {
    if (durNs > 0) {
      return durNs;
    }
    long longest = intervalsUs.stream().mapToLong(Long::longValue).max().orElse(0);
    return loops > 0 ? loops * longest * 1_000 : 0;
  }

  static String series(String id, int thread) {
    return id + "/T" + thread;
  }

  private static BitSet allCpus(int n) {
    BitSet b = new BitSet();
    b.set(0, n);
    return b;
  }

  /** Per-thread statistics and the optional histogram, as cyclictest prints them. */
  record Report(
      String id, List<Long> intervals, int prio, long histUs, boolean nsecs, long latencyUs)
      implements ToolReport {
    @Override
    public Map<String, Object> json(dev.schedlab.engine.output.RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      List<Object> threads = new ArrayList<>();
      long allMax = 0;
      double allAvgSum = 0;
      long allCycles = 0;
      for (int k = 0; k < intervals.size(); k++) {
        Stat s = Stat.of(Raw.samples(r, series(id, k)), nsecs ? 1 : 1000);
        Map<String, Object> t = new TreeMap<>();
        t.put("thread", k);
        t.put("interval_us", intervals.get(k));
        t.put("cycles", s.cycles);
        t.put("min", s.min);
        t.put("act", s.act);
        t.put("avg", s.avg);
        t.put("max", s.max);
        if (histUs > 0) {
          t.put("histogram", s.histogram(histUs));
          t.put("overflows", s.overflows(histUs));
        }
        threads.add(t);
        allMax = Math.max(allMax, s.max);
        allAvgSum += s.sum;
        allCycles += s.cycles;
      }
      m.put("unit", nsecs ? "ns" : "us");
      m.put("threads", threads);
      m.put("max", allMax);
      m.put("avg", allCycles == 0 ? 0.0 : Math.round(allAvgSum / allCycles * 100) / 100.0);
      m.put("cycles", allCycles);
      return m;
    }

    @Override
    public String text(dev.schedlab.engine.output.RunResult r) {
      StringBuilder sb = new StringBuilder();
      sb.append(String.format("# /dev/cpu_dma_latency set to %dus%n", latencyUs));
      List<Stat> stats = new ArrayList<>();
      for (int k = 0; k < intervals.size(); k++) {
        stats.add(Stat.of(Raw.samples(r, series(id, k)), nsecs ? 1 : 1000));
      }
      if (histUs > 0) {
        sb.append("# Histogram\n");
        List<List<Long>> hists = new ArrayList<>();
        stats.forEach(s -> hists.add(s.histogram(histUs)));
        for (int b = 0; b < histUs; b++) {
          boolean any = false;
          StringBuilder row = new StringBuilder(String.format("%06d ", b));
          for (int k = 0; k < stats.size(); k++) {
            long c = hists.get(k).get(b);
            any |= c > 0;
            row.append(String.format("%06d", c)).append(k < stats.size() - 1 ? "\t" : "");
          }
          if (any) {
            sb.append(row).append('\n');
          }
        }
        line(sb, "# Total:", stats, s -> String.format(" %09d", s.cycles - s.overflows(histUs)));
        line(sb, "# Min Latencies:", stats, s -> String.format(" %05d", s.min));
        line(sb, "# Avg Latencies:", stats, s -> String.format(" %05d", s.avg));
        line(sb, "# Max Latencies:", stats, s -> String.format(" %05d", s.max));
        line(sb, "# Histogram Overflows:", stats, s -> String.format(" %05d", s.overflows(histUs)));
        return sb.toString();
      }
      String fmt =
          nsecs
              ? "T:%2d (%5d) P:%2d I:%d C:%7d Min:%7d Act:%8d Avg:%8d Max:%8d%n"
              : "T:%2d (%5d) P:%2d I:%d C:%7d Min:%7d Act:%5d Avg:%5d Max:%8d%n";
      for (int k = 0; k < stats.size(); k++) {
        Stat s = stats.get(k);
        sb.append(
            String.format(
                fmt, k, 1000 + k, prio, intervals.get(k), s.cycles, s.min, s.act, s.avg, s.max));
      }
      return sb.toString();
    }

    private static void line(
        StringBuilder sb,
        String head,
        List<Stat> stats,
        java.util.function.Function<Stat, String> f) {
      sb.append(head);
      stats.forEach(s -> sb.append(f.apply(s)));
      sb.append('\n');
    }
  }

  /** One thread's statistics in display units (cyclictest truncates each sample to us). */
  static final class Stat {
    long cycles;
    long min;
    long act;
    long avg;
    long max;
    long sum;
    final long[] values;

    private Stat(long[] values) {
      this.values = values;
    }

    static Stat of(long[] ns, long unitNs) {
      Stat s = new Stat(new long[ns.length]);
      s.min = ns.length == 0 ? 0 : Long.MAX_VALUE;
      for (int i = 0; i < ns.length; i++) {
        long v = Math.max(0, ns[i]) / unitNs;
        s.values[i] = v;
        s.min = Math.min(s.min, v);
        s.max = Math.max(s.max, v);
        s.sum += v;
      }
      s.cycles = ns.length;
      s.act = ns.length == 0 ? 0 : s.values[ns.length - 1];
      s.avg = ns.length == 0 ? 0 : s.sum / ns.length;
      return s;
    }

    long overflows(long size) {
      long c = 0;
      for (long v : values) {
        if (v >= size) {
          c++;
        }
      }
      return c;
    }

    List<Long> histogram(long size) {
      long[] h = new long[(int) size];
      for (long v : values) {
        if (v < size) {
          h[(int) v]++;
        }
      }
      List<Long> out = new ArrayList<>();
      for (long c : h) {
        out.add(c);
      }
      return out;
    }
  }
}
