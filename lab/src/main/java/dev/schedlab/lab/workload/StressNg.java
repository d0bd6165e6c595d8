package dev.schedlab.lab.workload;

import static dev.schedlab.lab.workload.ToolArgs.Arg.NONE;
import static dev.schedlab.lab.workload.ToolArgs.Arg.REQUIRED;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * stress-ng with the stressors schedulers are judged by: {@code --cyclic} (the measuring worker),
 * {@code --mmap} (kernel-heavy background) and {@code --cpu} with {@code --cpu-load}.
 *
 * <p>Models: cyclic workers (SCHED_DEADLINE 90/100 us by default, or FIFO/RR) looping {@code
 * clock_gettime; clock_nanosleep(relative, delay); clock_gettime} and storing the first 10000
 * samples; mmap workers as the syscalls of stress-mmap.c (MAP_POPULATE mmap with a random extra
 * flag, MADV_POPULATE_READ passes, whole-range munmap, per-page MAP_FIXED re-mmap) with their
 * preemptible, page-table-lock and IRQs-off parts and cond_resched points ({@link MmapModel}); cpu
 * workers as busy user slices alternating with sleeps to an average load. Does not model: other
 * stressors, bogo-op accounting, --metrics, the parent process; {@code --timeout} is accepted but
 * the run length is the scenario's duration.
 */
public final class StressNg implements WorkloadTool {
  static final int MAX_SAMPLES = 10_000;
  static final ToolParam CYCLIC_USER =
      ToolParam.ns(
          "cyclic_user_work",
          2_000,
          "[estimate] kernel-model.md 3.3: ~2 us of the cyclic worker's own CPU per iteration",
          "user work per cyclic iteration (two clock_gettime, sample store)");

  static final List<ToolArgs.Opt> OPTS =
      List.of(
          ToolArgs.Opt.of(null, "cyclic", REQUIRED),
          ToolArgs.Opt.of(null, "cyclic-policy", REQUIRED),
          ToolArgs.Opt.of(null, "cyclic-prio", REQUIRED),
          ToolArgs.Opt.of(null, "cyclic-sleep", REQUIRED),
          ToolArgs.Opt.of(null, "cyclic-method", REQUIRED),
          ToolArgs.Opt.of(null, "mmap", REQUIRED),
          ToolArgs.Opt.of(null, "mmap-bytes", REQUIRED),
          ToolArgs.Opt.of(null, "mmap-mprotect", NONE),
          ToolArgs.Opt.of(null, "mmap-slow-munmap", NONE),
          ToolArgs.Opt.of(null, "mmap-write-check", NONE),
          ToolArgs.Opt.of(null, "cpu", REQUIRED),
          ToolArgs.Opt.of(null, "cpu-load", REQUIRED),
          ToolArgs.Opt.of(null, "cpu-load-slice", REQUIRED),
          ToolArgs.Opt.of(null, "taskset", REQUIRED),
          ToolArgs.Opt.of("t", "timeout", REQUIRED),
          ToolArgs.Opt.of("q", "quiet", NONE));

  @Override
  public String name() {
    return "stress-ng";
  }

  @Override
  public String summary() {
    return "stress-ng --cyclic (latency statistics), --mmap (kernel paths), --cpu/--cpu-load";
  }

  @Override
  public List<ToolParam> params() {
    List<ToolParam> p = new ArrayList<>(List.of(CYCLIC_USER));
    p.addAll(MmapModel.PARAMS);
    return p;
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), line, OPTS);
    if (!a.positionals().isEmpty()) {
      throw a.error("unexpected argument '" + a.positionals().get(0) + "'");
    }
    if (!a.has("cyclic") && !a.has("mmap") && !a.has("cpu")) {
      throw a.error("no stressor given; expected --cyclic N, --mmap N or --cpu N");
    }
    String set = a.text("taskset", "");
    BitSet cpus;
    try {
      cpus = set.isEmpty() ? new BitSet() : CpuList.parse(set, ctx.nrCpus());
    } catch (IllegalArgumentException e) {
      throw a.error("--taskset: " + e.getMessage());
    }
    String cpuList = set.isEmpty() ? "" : CpuList.format(cpus);
    int online = cpus.isEmpty() ? ctx.nrCpus() : cpus.cardinality();
    if (a.has("timeout")) {
      a.timeNs("timeout", 0, 1_000_000_000L);
    }
    List<TaskSpec> tasks = new ArrayList<>();
    Map<String, Integer> caps = new TreeMap<>();
    int cyclic = instances(a, "cyclic", online);
    String policy = a.choice("cyclic-policy", "deadline", "deadline", "fifo", "rr");
    int prio = (int) Math.min(99, a.integer("cyclic-prio", 100, 1, 100));
    long delay = a.integer("cyclic-sleep", 100_000, 1, 1_000_000_000L);
    a.choice("cyclic-method", "clock_ns", "clock_ns");
    for (int i = 0; i < cyclic; i++) {
      String series = series(ctx.id(), i);
      List<StepSpec> prog =
          List.of(
              new StepSpec.Sleep(Dist.fixed(delay), series), Tasks.user(ctx.param(CYCLIC_USER)));
      boolean dl = policy.equals("deadline");
      tasks.add(
          new TaskSpec(
              ctx.id() + "-cyclic/" + i,
              1,
              policy,
              0,
              dl ? 0 : prio,
              dl ? 90_000 : 0,
              dl ? 100_000 : 0,
              0,
              cpuList,
              false,
              false,
              "own",
              0,
              prog));
      caps.put(series, MAX_SAMPLES);
    }
    int mmap = instances(a, "mmap", online);
    long bytes = a.has("mmap-bytes") ? bytes(a, a.text("mmap-bytes", "")) : MmapModel.DEFAULT_BYTES;
    // stress-mmap.c: mmap_bytes = total / instances (at least one page), sz page-aligned
    boolean release1704 = ctx.param(MmapCosts.VERSION) < 1705;
    if (release1704 && (a.has("mmap-slow-munmap") || a.has("mmap-write-check"))) {
      throw a.error(
          "--mmap-slow-munmap and --mmap-write-check came with stress-ng V0.17.05; "
              + "params.version "
              + ctx.param(MmapCosts.VERSION)
              + " lays out V0.17.04, which always unmaps page by page and writes every page");
    }
    MmapModel.Options mopt =
        new MmapModel.Options(
            a.has("mmap-mprotect"),
            a.has("mmap-slow-munmap"),
            a.has("mmap-write-check"),
            release1704);
    if (mmap > 0) {
      List<Long> seeds = new ArrayList<>();
      for (int i = 0; i < mmap; i++) {
        seeds.add(workerName(ctx, i).hashCode() * 0x9E3779B97F4A7C15L);
      }
      List<MmapModel.Worker> workers = MmapModel.workers(ctx, bytes / mmap, mopt).workers(seeds);
      for (int i = 0; i < mmap; i++) {
        MmapModel.Worker w = workers.get(i);
        tasks.add(Tasks.normal(workerName(ctx, i), cpuList, w.program()).withDraws(w.draws()));
      }
    }
    int cpu = instances(a, "cpu", online);
    double load = a.decimal("cpu-load", 100, 0, 100);
    long slice = a.integer("cpu-load-slice", 0, -1_000_000_000, 1_000_000_000);
    if (slice < 0) {
      throw a.error(
          "--cpu-load-slice: negative slices (bogo-op counts) are not modelled; give ms or 0");
    }
    for (int i = 0; i < cpu; i++) {
      tasks.add(Tasks.normal(ctx.id() + "-cpu/" + i, cpuList, cpuProgram(load, slice)));
    }
    String stressors = describe(cyclic, mmap, cpu);
    return new ToolExpansion(
        tasks,
        caps,
        -1,
        new Report(ctx.id(), cyclic > 0, policy, delay, stressors),
        mmap > 0 ? MmapPaths.LOCKS : List.of(),
        mmap > 0 ? MmapModel.vmstatWorkers(ctx) : List.of());
  }

  private static String workerName(ToolContext ctx, int i) {
    return ctx.id() + "-mmap/" + i;
  }

  /** The largest {@code --mmap-bytes} the model sets up (see {@link #bytes}). */
  static final long MAX_MMAP_BYTES = 1L << 30;

  private static int instances(ToolArgs a, String opt, int online) throws ToolArgsException {
    if (!a.has(opt)) {
      return 0;
    }
    long n = a.integer(opt, 0, -1, 4096);
    return n <= 0 ? online : (int) n;
  }

  /**
   * {@code --mmap-bytes N[k|m|g]}: one page (4k) up to {@link #MAX_MMAP_BYTES} in all. The model
   * builds every page's kernel path (about 3 KB of program per page), so a larger region would take
   * gigabytes of memory and minutes to set up before the run starts.
   */
  private static long bytes(ToolArgs a, String v) throws ToolArgsException {
    String s = v.toLowerCase(Locale.ROOT);
    int shift = s.endsWith("k") ? 10 : s.endsWith("m") ? 20 : s.endsWith("g") ? 30 : 0;
    String num = shift == 0 ? s : s.substring(0, s.length() - 1);
    long n = a.integerOf("--mmap-bytes", num, 1, MAX_MMAP_BYTES);
    if (n > MAX_MMAP_BYTES >> shift || n << shift < 4096) {
      throw a.error("--mmap-bytes: expected 4k..1g, got " + v);
    }
    return n << shift;
  }

  /** Busy user slices alternating with sleeps, average load {@code load} percent. */
  static List<StepSpec> cpuProgram(double load, long sliceMs) {
    long busyMax = sliceMs == 0 ? 500_000_000L : sliceMs * 1_000_000L;
    List<StepSpec> prog = new ArrayList<>();
    if (load > 0) {
      prog.add(new StepSpec.User(sliceMs == 0 ? Dist.uniform(0, busyMax) : Dist.fixed(busyMax)));
    }
    if (load < 100) {
      double meanBusy = sliceMs == 0 ? busyMax / 2.0 : busyMax;
      long meanSleep = load == 0 ? busyMax : Math.round(meanBusy * (100 - load) / load);
      prog.add(
          new StepSpec.Sleep(
              sliceMs == 0 ? Dist.uniform(0, 2 * meanSleep) : Dist.fixed(meanSleep)));
    }
    return prog;
  }

  static String series(String id, int instance) {
    return id + "/cyclic/" + instance;
  }

  private static String describe(int cyclic, int mmap, int cpu) {
    List<String> s = new ArrayList<>();
    if (cyclic > 0) {
      s.add(cyclic + " cyclic");
    }
    if (mmap > 0) {
      s.add(mmap + " mmap");
    }
    if (cpu > 0) {
      s.add(cpu + " cpu");
    }
    return String.join(", ", s);
  }

  /** The cyclic worker 0's statistics, printed as stress-ng prints them. */
  record Report(String id, boolean cyclic, String policy, long delayNs, String stressors)
      implements ToolReport {
    private static final String P = "stress-ng: info:  [1] ";

    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      m.put("stressors", stressors);
      if (cyclic) {
        CyclicStats s = CyclicStats.of(Raw.samples(r, series(id, 0)));
        Map<String, Object> c = new TreeMap<>();
        c.put("policy", "SCHED_" + policy.toUpperCase(Locale.ROOT));
        c.put("delay_ns", delayNs);
        c.put("samples", s.n());
        c.put("mean", Math.round(s.mean() * 100) / 100.0);
        c.put("mode", s.mode());
        c.put("min", s.min());
        c.put("max", s.max());
        c.put("stddev", Math.round(s.stddev() * 100) / 100.0);
        c.put("percentiles", new TreeMap<>(s.percentiles()));
        m.put("cyclic", c);
      }
      return m;
    }

    @Override
    public String text(RunResult r) {
      StringBuilder sb = new StringBuilder();
      sb.append(P).append("dispatching hogs: ").append(stressors).append('\n');
      if (cyclic) {
        CyclicStats s = CyclicStats.of(Raw.samples(r, series(id, 0)));
        String c = P + "cyclic: ";
        sb.append(
            String.format(
                Locale.ROOT,
                "%ssched SCHED_%s: %d ns delay, %d samples%n",
                c,
                policy.toUpperCase(Locale.ROOT),
                delayNs,
                s.n()));
        sb.append(
            String.format(Locale.ROOT, "%s  mean: %.2f ns, mode: %d ns%n", c, s.mean(), s.mode()));
        sb.append(
            String.format(
                Locale.ROOT,
                "%s  min: %d ns, max: %d ns, std.dev. %.2f%n",
                c,
                s.min(),
                s.max(),
                s.stddev()));
        sb.append(c).append("latency percentiles:\n");
        s.percentiles()
            .forEach(
                (p, v) -> sb.append(String.format(Locale.ROOT, "%s  %5s%%: %10d ns%n", c, p, v)));
      }
      sb.append(P).append("successful run completed\n");
      return sb.toString();
    }
  }
}
