package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;
import static dev.schedlab.lab.workload.ToolArgs.Arg.REQUIRED;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;

/**
 * {@code rtla timerlat top}: a per-CPU timerlat hrtimer with period {@code -p} (default 1000 us)
 * and one workload per monitored CPU, pinned, SCHED_FIFO:95 by default ({@code -P}).
 *
 * <p>Models: with user-space workloads (the default since rtla 6.10) a process {@code timerlatu/N}
 * per CPU (own mm) looping on {@code read(timerlat_fd)}: the timer's IRQ handler records IRQ
 * latency and wakes it, the wakeup is recorded as Thread latency in the kernel, it returns to user
 * space (running pending task_work), does its user part and re-enters the kernel, where Ret user
 * latency is recorded. {@code -k}: kernel threads (no Ret user). Does not model: rtla's own
 * main/housekeeping threads ({@code -H} is accepted and ignored), tracing, auto-analysis, stop
 * thresholds.
 */
public final class Timerlat implements WorkloadTool {
  static final ToolParam USER_WORK =
      ToolParam.ns(
          "user_work",
          1_000,
          "[estimate] timerlatu loop: back from read(), bookkeeping, read() again (~1 us)",
          "user-space part of each timerlatu cycle");
  static final ToolParam KTHREAD_WORK =
      ToolParam.ns(
          "kthread_work",
          200,
          "[estimate] timerlat kthread loop (-k): record the sample, re-arm the timer",
          "kernel-thread part of each timerlat cycle");

  static final List<ToolArgs.Opt> OPTS =
      List.of(
          ToolArgs.Opt.of("p", "period", REQUIRED),
          ToolArgs.Opt.of("c", "cpus", REQUIRED),
          ToolArgs.Opt.of("P", "priority", REQUIRED),
          ToolArgs.Opt.of("q", "quiet", NONE),
          ToolArgs.Opt.of("H", "house-keeping", REQUIRED),
          ToolArgs.Opt.of("d", "duration", REQUIRED),
          ToolArgs.Opt.of("u", "user-threads", NONE),
          ToolArgs.Opt.of("k", "kernel-threads", NONE),
          ToolArgs.Opt.of("n", "nano", NONE),
          ToolArgs.Opt.of(null, "dma-latency", REQUIRED));

  @Override
  public String name() {
    return "rtla";
  }

  @Override
  public String summary() {
    return "rtla timerlat top: per-CPU timer, IRQ / Thread / Ret user latencies";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(USER_WORK, KTHREAD_WORK);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    List<String> pos = a.positionals();
    if (pos.isEmpty() || !pos.get(0).equals("timerlat")) {
      throw a.error(
          "expected the subcommand 'timerlat' (rtla timerlat top ...); only timerlat is modelled");
    }
    if (pos.size() > 2 || (pos.size() == 2 && !pos.get(1).equals("top"))) {
      throw a.error("only 'timerlat top' is modelled, got '" + String.join(" ", pos) + "'");
    }
    long periodNs = a.integer("period", 1000, 100, 1_000_000) * 1000;
    BitSet cpus;
    try {
      cpus = a.has("cpus") ? CpuList.parse(a.text("cpus", ""), ctx.nrCpus()) : all(ctx.nrCpus());
    } catch (IllegalArgumentException e) {
      throw a.error("-c: " + e.getMessage());
    }
    if (a.has("house-keeping")) {
      try {
        CpuList.parse(a.text("house-keeping", ""), ctx.nrCpus());
      } catch (IllegalArgumentException e) {
        throw a.error("-H: " + e.getMessage());
      }
    }
    String prio = a.text("priority", "f:95");
    String[] pp = splitDroppingTrailingEmpty(prio, ":");
    String policy;
    int rtPrio = 0;
    int nice = 0;
    switch (pp[0]) {
      case "f", "r" -> {
        policy = pp[0].equals("f") ? "fifo" : "rr";
        rtPrio = pp.length == 2 ? (int) a.integerOf("-P", pp[1], 1, 99) : 95;
      }
      case "o" -> {
        policy = "normal";
        nice = pp.length == 2 ? (int) a.integerOf("-P", pp[1], -20, 19) : 0;
      }
      default -> {
        throw a.error(
            "-P: expected f:PRIO, r:PRIO or o:NICE (deadline d:runtime:period is not modelled), got '"
                + prio
                + "'");
      }
    }
    boolean kernel = a.has("kernel-threads");
    long durNs = a.has("duration") ? a.timeNs("duration", 0, 1_000_000_000L) : 0;
    long dma = a.has("dma-latency") ? a.integer("dma-latency", 0, 0, 10_000_000) * 1000 : -1;
    long work = kernel ? ctx.param(KTHREAD_WORK) : ctx.param(USER_WORK);
    List<TaskSpec> tasks = new ArrayList<>();
    Map<String, Integer> caps = new TreeMap<>();
    List<Integer> cpuList = cpus.stream().boxed().toList();
    int cap =
        durNs > 0
            ? (int) Math.min(durNs / periodNs + 2, Raw.MAX_RAW)
            : Raw.periodicCap(ctx.durationNs(), periodNs);
    for (int cpu : cpuList) {
      String base = ctx.id() + "/cpu" + cpu;
      StepSpec sleep =
          new StepSpec.SleepUntil(
              periodNs, null, base + "/irq", base + "/thread", kernel ? null : base + "/ret_user");
      List<StepSpec> body = List.of(sleep, Tasks.user(work));
      // timerlat arms each CPU's first expiry at now + period when its workload starts: an
      // arbitrary phase relative to the tick, drawn from the thread's own stream.
      List<StepSpec> program = new java.util.ArrayList<>();
      program.add(
          new StepSpec.Sleep(
              new dev.schedlab.engine.config.Dist(
                  dev.schedlab.engine.config.Dist.Kind.UNIFORM, 0, ctx.tickNs())));
      program.addAll(
          durNs > 0
              ? Tasks.runThenExit(durNs / periodNs, body)
              : List.of(new StepSpec.Loop(Integer.MAX_VALUE, body)));
      tasks.add(
          Tasks.withPolicy(
              (kernel ? "timerlat/" : "timerlatu/") + cpu,
              policy,
              nice,
              rtPrio,
              Integer.toString(cpu),
              kernel,
              program));
      caps.put(base + "/irq", cap);
      caps.put(base + "/thread", cap);
      if (!kernel) {
        caps.put(base + "/ret_user", cap);
      }
    }
    return new ToolExpansion(
        tasks, caps, dma, new Report(ctx.id(), cpuList, !kernel, a.has("nano"), ctx.durationNs()));
  }

  private static BitSet all(int n) {
    BitSet b = new BitSet();
    b.set(0, n);
    return b;
  }

  /** The timerlat top summary: per CPU count and cur/min/avg/max of the three latencies. */
  record Report(String id, List<Integer> cpus, boolean user, boolean nano, long durationNs)
      implements ToolReport {
    private static final String[] KINDS = {"irq", "thread", "ret_user"};

    private Cyclictest.Stat stat(long[] ns) {
      return Cyclictest.Stat.of(ns, nano ? 1 : 1000);
    }

    private long[] samples(RunResult r, int cpu, String kind) {
      return Raw.samples(r, id + "/cpu" + cpu + "/" + kind);
    }

    private int kinds() {
      return user ? 3 : 2;
    }

    /** The ALL row of one latency kind: the statistics over every CPU's samples. */
    private Cyclictest.Stat all(RunResult r, String kind) {
      return stat(
          cpus.stream().map(c -> samples(r, c, kind)).flatMapToLong(LongStream::of).toArray());
    }

    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      Map<String, Object> per = new TreeMap<>();
      // CPUs whose worst Ret user (or Thread, for kernel threads) reached 20 us: the seed-001
      // criterion ("a latency below 20us on all cores").
      long spikeCpus = 0;
      long spikeUnit = nano ? 20_000 : 20;
      for (int cpu : cpus) {
        Map<String, Object> c = new TreeMap<>();
        for (int i = 0; i < kinds(); i++) {
          Cyclictest.Stat s = stat(samples(r, cpu, KINDS[i]));
          if (i == 0) {
            c.put("count", s.cycles); // the IRQ count, as in the text's COUNT column
          }
          c.put(KINDS[i], inOrder("cur", s.act, "min", s.min, "avg", s.avg, "max", s.max));
          if (i == kinds() - 1 && s.max >= spikeUnit) {
            spikeCpus++;
          }
        }
        per.put(String.format(Locale.ROOT, "%03d", cpu), c);
      }
      m.put("cpus_at_or_over_20us", spikeCpus);
      m.put("unit", nano ? "ns" : "us");
      m.put("cpus", per);
      Map<String, Object> sum = new TreeMap<>();
      for (int i = 0; i < kinds(); i++) {
        Cyclictest.Stat s = all(r, KINDS[i]);
        sum.put(KINDS[i], inOrder("count", s.cycles, "min", s.min, "max", s.max, "avg", s.avg));
      }
      m.put("all", sum);
      return m;
    }

    /**
     * Keys and values in the order given: {@code Map.of} iterates in an order that changes from one
     * JVM start to the next, and the JSON must be byte-identical.
     */
    private static Map<String, Object> inOrder(Object... keysAndValues) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (int i = 0; i < keysAndValues.length; i += 2) {
        m.put((String) keysAndValues[i], keysAndValues[i + 1]);
      }
      return m;
    }

    @Override
    public String text(RunResult r) {
      StringBuilder sb = new StringBuilder();
      String u = nano ? "ns" : "us";
      long secs = durationNs / 1_000_000_000L;
      sb.append(String.format("                                     Timer Latency%n"));
      sb.append(
          String.format(
              "  0 %02d:%02d:%02d   |          IRQ Timer Latency (%s)        |         Thread Timer Latency (%s)      |%s%n",
              secs / 3600,
              secs / 60 % 60,
              secs % 60,
              u,
              u,
              user ? String.format("    Ret user Timer Latency (%s)", u) : ""));
      sb.append(
          "CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max |");
      sb.append(user ? "      cur       min       avg       max\n" : "\n");
      for (int cpu : cpus) {
        for (int i = 0; i < kinds(); i++) {
          Cyclictest.Stat s = stat(samples(r, cpu, KINDS[i]));
          if (i == 0) {
            sb.append(String.format("%3d #%-9d |", cpu, s.cycles));
          }
          sb.append(
              String.format(
                  " %8d  %8d  %8d  %8d%s",
                  s.act, s.min, s.avg, s.max, i < kinds() - 1 ? " |" : ""));
        }
        sb.append('\n');
      }
      sb.append(
          "---------------|----------------------------------------|----------------------------------------|");
      sb.append(user ? "---------------------------------------\n" : "\n");
      if (!cpus.isEmpty()) {
        for (int i = 0; i < kinds(); i++) {
          Cyclictest.Stat t = all(r, KINDS[i]);
          if (i == 0) {
            sb.append(String.format("ALL #%-6d e0 |", t.cycles));
          }
          sb.append(
              String.format(
                  "           %8d  %8d  %8d%s", t.min, t.avg, t.max, i < kinds() - 1 ? " |" : ""));
        }
        sb.append('\n');
      }
      return sb.toString();
    }
  }

  /**
   * {@code s.split(regex)} spelled out: the pieces with trailing empty ones dropped ({@code f:} is
   * {@code [f]}, {@code f:5:} is {@code [f, 5]}), as -P has always been read.
   */
  private static String[] splitDroppingTrailingEmpty(String s, String regex) {
    String[] p = s.split(regex, -1);
    int n = p.length;
    while (n > 1 && p[n - 1].isEmpty()) {
      n--;
    }
    if (n == 1 && p.length > 1 && p[0].isEmpty()) {
      n = 0;
    }
    return n == p.length ? p : Arrays.copyOf(p, n);
  }
}
