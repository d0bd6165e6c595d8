package dev.schedlab.engine.core;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.LockSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.NoiseSpec;
import dev.schedlab.engine.config.RunConfig;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.config.WorkloadConfig;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.plugin.Extensions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run of a mechanism test, written in code: a machine, a kernel configuration and task groups,
 * built into a {@link RunConfig} and a {@link Kernel}. Unset fields keep a scenario file's defaults
 * (docs/scenarios.md): seed 1, one second, the small-x86 machine (1 socket x 4 cores x SMT2, one
 * LLC, skx idle states, menu governor), PREEMPT_VOLUNTARY at HZ=1000, mainline parameters.
 */
final class TestRun {
  static final long US = 1_000L;
  static final long MS = 1_000_000L;
  static final long S = 1_000_000_000L;

  private String name = "test";
  private long seed = 1;
  private long durationNs = S;

  private String preset = "small-x86";
  private int sockets = 1;
  private int coresPerSocket = 4;
  private int threadsPerCore = 2;
  private int coresPerLlc = 0;
  private String idleStates = "skx";
  private final List<String> disabledStates = new ArrayList<>();
  private boolean virtualized;
  private String isolatedCpus = "";
  private final List<NoiseSpec.Bin> noise = new ArrayList<>();
  private final Map<Integer, Integer> capacities = new TreeMap<>();

  private String preempt = KernelSpec.DEFAULT_PREEMPT;
  private int hz = 1000;
  private boolean preemptRt;
  private boolean autogroup;
  private final Map<String, Boolean> features = new TreeMap<>();
  private final Map<String, Long> params = new TreeMap<>();
  private final List<CgroupSpec> cgroups = new ArrayList<>();

  private final List<Task> tasks = new ArrayList<>();
  private final Map<String, Integer> sampleCaps = new TreeMap<>();
  private final Map<String, LockSpec> locks = new TreeMap<>();

  private TestRun() {}

  /** A run with every default. */
  static TestRun run() {
    return new TestRun();
  }

  /** A task group of one task named {@code name}, SCHED_NORMAL at nice 0 on every CPU. */
  static Task task(String name) {
    return new Task(name);
  }

  TestRun name(String runName) {
    this.name = runName;
    return this;
  }

  TestRun seed(long s) {
    this.seed = s;
    return this;
  }

  TestRun duration(long ns) {
    this.durationNs = ns;
    return this;
  }

  /** The machine's shape: {@code sockets x coresPerSocket x threadsPerCore} CPUs. */
  TestRun cpus(int socketCount, int cores, int threads) {
    this.sockets = socketCount;
    this.coresPerSocket = cores;
    this.threadsPerCore = threads;
    return this;
  }

  /** Cores sharing a last-level cache (0 = the whole socket). */
  TestRun coresPerLlc(int cores) {
    this.coresPerLlc = cores;
    return this;
  }

  /** The idle-state table: skx, icx, spr, amd-acpi, poll-only, hlt-only. */
  TestRun idleStates(String table) {
    this.idleStates = table;
    return this;
  }

  /** Idle states disabled by name. */
  TestRun disabledStates(String... states) {
    disabledStates.addAll(Arrays.asList(states));
    return this;
  }

  /** A VM guest: IPI sends exit to the host, halted vCPUs wake through it. */
  TestRun virtualized(boolean guest) {
    this.virtualized = guest;
    return this;
  }

  /** isolcpus/nohz_full CPUs as a cpulist. */
  TestRun isolated(String cpulist) {
    this.isolatedCpus = cpulist;
    return this;
  }

  /** {@code arch_scale_cpu_capacity()} of {@code cpu} (the others keep 1024). */
  TestRun capacity(int cpu, int capacity) {
    capacities.put(cpu, capacity);
    return this;
  }

  /** Host interruptions {@code fromNs} to {@code toNs} long, {@code perSecond} per CPU. */
  TestRun noise(long fromNs, long toNs, double perSecond) {
    noise.add(new NoiseSpec.Bin(fromNs, toNs, perSecond));
    return this;
  }

  /** The kvm-4vcpu preset: a KVM guest of 4 vCPUs without SMT, HLT-only idle. */
  TestRun kvm4vcpu() {
    this.preset = "kvm-4vcpu";
    return cpus(1, 4, 1).idleStates("hlt-only").virtualized(true);
  }

  /** The preemption model: none, voluntary, full or lazy. */
  TestRun preempt(String model) {
    this.preempt = model;
    return this;
  }

  /** CONFIG_HZ: the tick's rate. */
  TestRun hz(int rate) {
    this.hz = rate;
    return this;
  }

  /** CONFIG_PREEMPT_RT. */
  TestRun preemptRt() {
    this.preemptRt = true;
    return this;
  }

  /** A sched feature or engine switch ({@code feature.*} parameters) on or off. */
  TestRun feature(Param feature, boolean on) {
    String prefix = "feature.";
    if (!feature.key().startsWith(prefix)) {
      throw new IllegalArgumentException(feature.key() + " is not a feature");
    }
    features.put(feature.key().substring(prefix.length()), on);
    return this;
  }

  /** A parameter-table override, in the parameter's unit (durations in ns). */
  TestRun param(Param p, long value) {
    params.put(p.key(), value);
    return this;
  }

  /** Kernel path costs without their random spread ({@code cost.jitter_pct: 0}). */
  TestRun noJitter() {
    return param(Param.COST_JITTER, 0);
  }

  /** A child cgroup of the root: {@code cpu.weight}, {@code cpu.max} (quota -1 = max), tasks. */
  TestRun cgroup(String group, int weight, long quotaNs, long periodNs, String... members) {
    cgroups.add(new CgroupSpec(group, "", weight, quotaNs, periodNs, List.of(members)));
    return this;
  }

  /** A child cgroup of the root with weight 100 and no cpu.max limit. */
  TestRun cgroup(String group, String... members) {
    return cgroup(group, 100, -1, 100 * MS, members);
  }

  /** {@code kernel.sched_autogroup_enabled}. */
  TestRun autogroup(boolean on) {
    this.autogroup = on;
    return this;
  }

  /** A machine-wide kernel lock. */
  TestRun lock(String lock, LockSpec.Kind kind) {
    return lock(lock, kind, LockSpec.Scope.MACHINE);
  }

  /** A kernel lock with one instance per {@code scope}. */
  TestRun lock(String lock, LockSpec.Kind kind, LockSpec.Scope scope) {
    locks.put(lock, new LockSpec(lock, kind, scope));
    return this;
  }

  /** Latency series {@code series} keeps its first {@code max} samples, raw values too. */
  TestRun sampleCap(String series, int max) {
    sampleCaps.put(series, max);
    return this;
  }

  TestRun tasks(Task... groups) {
    tasks.addAll(Arrays.asList(groups));
    return this;
  }

  RunConfig config() {
    int nrCpus = sockets * coresPerSocket * threadsPerCore;
    MachineSpec machine =
        new MachineSpec(
            preset,
            sockets,
            coresPerSocket,
            threadsPerCore,
            coresPerLlc,
            1,
            idleStates,
            disabledStates,
            "menu",
            virtualized,
            cpulist(isolatedCpus, nrCpus),
            List.of(),
            List.of(),
            new NoiseSpec(noise),
            capacityList(nrCpus),
            100);
    KernelSpec kernel =
        new KernelSpec(
            preempt, hz, features, params, Long.MAX_VALUE, preemptRt, cgroups, autogroup);
    List<TaskSpec> specs = tasks.stream().map(t -> t.spec(nrCpus)).toList();
    return new RunConfig(
        name,
        seed,
        durationNs,
        machine,
        kernel,
        new WorkloadConfig(specs, sampleCaps, List.copyOf(locks.values())));
  }

  /** The kernel of this run with the built-in providers and mainline hooks. */
  Kernel kernel() {
    return kernel(TestKernels.builtins(), TraceSink.NONE);
  }

  Kernel kernel(Extensions extensions) {
    return kernel(extensions, TraceSink.NONE);
  }

  Kernel kernel(TraceSink trace) {
    return kernel(TestKernels.builtins(), trace);
  }

  Kernel kernel(Extensions extensions, TraceSink trace) {
    return KernelBuilder.build(config(), extensions, trace);
  }

  /** Empty when every CPU has the full capacity, as a machine file without cpu_capacity. */
  private List<Integer> capacityList(int nrCpus) {
    if (capacities.values().stream().allMatch(c -> c == 1024)) {
      return List.of();
    }
    List<Integer> out = new ArrayList<>();
    for (int c = 0; c < nrCpus; c++) {
      out.add(capacities.getOrDefault(c, 1024));
    }
    return out;
  }

  /** The canonical form of a cpulist ("" stays "": no CPUs, or all for an affinity). */
  private static String cpulist(String list, int nrCpus) {
    return CpuList.format(CpuList.parse(list, nrCpus));
  }

  /** A task group: {@code count} identical tasks running {@code program}. */
  static final class Task {
    private final String name;
    private int count = 1;
    private String policy = "normal";
    private int nice;
    private int rtPriority;
    private long dlRuntimeNs;
    private long dlDeadlineNs;
    private String cpus = "";
    private long startNs;
    private long timerSlackNs = -1;
    private int startCpu = -1;
    private List<StepSpec> program = List.of();
    private Map<String, List<Integer>> draws = Map.of();

    private Task(String name) {
      this.name = name;
    }

    /** {@code n} tasks named {@code name/0} ... (0: a template for fork). */
    Task count(int n) {
      this.count = n;
      return this;
    }

    Task nice(int value) {
      this.nice = value;
      return this;
    }

    /** SCHED_FIFO at {@code priority}. */
    Task fifo(int priority) {
      this.policy = "fifo";
      this.rtPriority = priority;
      return this;
    }

    /** SCHED_DEADLINE with the period equal to the deadline. */
    Task deadline(long runtimeNs, long deadlineNs) {
      this.policy = "deadline";
      this.dlRuntimeNs = runtimeNs;
      this.dlDeadlineNs = deadlineNs;
      return this;
    }

    /** Affinity as a cpulist. */
    Task cpus(String cpulist) {
      this.cpus = cpulist;
      return this;
    }

    /** Created at {@code ns} of simulated time. */
    Task start(long ns) {
      this.startNs = ns;
      return this;
    }

    /** Starts queued on {@code cpu} instead of being placed as a new task. */
    Task startOn(int cpu) {
      this.startCpu = cpu;
      return this;
    }

    /** {@code prctl(PR_SET_TIMERSLACK, ns)}. */
    Task timerSlack(long ns) {
      this.timerSlackNs = ns;
      return this;
    }

    /** The steps each task runs, looping unless the last is an exit. */
    Task program(StepSpec... steps) {
      this.program = List.of(steps);
      return this;
    }

    /** The values the tasks' pick steps read, by draw sequence. */
    Task draws(Map<String, List<Integer>> values) {
      this.draws = values;
      return this;
    }

    TaskSpec spec(int nrCpus) {
      return new TaskSpec(
              name,
              count,
              policy,
              nice,
              rtPriority,
              dlRuntimeNs,
              dlDeadlineNs,
              0,
              cpulist(cpus, nrCpus),
              false,
              false,
              "own",
              startNs,
              program,
              timerSlackNs,
              startCpu)
          .withDraws(draws);
    }
  }
}
