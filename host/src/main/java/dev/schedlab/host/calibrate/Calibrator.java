package dev.schedlab.host.calibrate;

import dev.schedlab.engine.config.NoiseSpec;
import dev.schedlab.host.CpuLists;
import dev.schedlab.host.HostDescription;
import dev.schedlab.host.HostException;
import dev.schedlab.host.HostFiles;
import dev.schedlab.host.MachineFileWriter;
import dev.schedlab.host.ModelRunner;
import dev.schedlab.host.Sourced;
import dev.schedlab.lab.workload.ToolParam;
import dev.schedlab.lab.workload.Tools;
import dev.schedlab.lab.workload.WorkloadTool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code schedlab host --calibrate}: sets the costs the model takes from the host by running the
 * probe's micro-benchmarks here and their twins (the {@code schedlab-probe} workload tool) in the
 * model. Each step inverts the model for one figure: with the parameter at 0 the model gives S0,
 * and the parameter is the real figure R less S0, divided by how often the path runs per figure
 * (kernel reasoning in each step). Steps run in order, each on the parameters the earlier ones set.
 * No validation workload of {@code check-host} sets anything.
 */
public final class Calibrator {
  /** Progress of the steps, for the command line. */
  public interface Progress {
    void step(int done, int total, String what);
  }

  private static final int STEPS = 26; // thirteen measurements, then thirteen steps
  private static final long MODEL_RUN_NS = 20_000_000_000L;

  /**
   * The model's idle window for {@link #invertRcu}: a minute, since 20 s hold about a hundred RCU
   * softirqs and their count moves by 10 % from one callback rate to the next.
   */
  private static final long RCU_WINDOW_NS = 60_000_000_000L;

  /** At most this many rescalings of {@code bg.rcu_callbacks_milli} ({@link #invertRcu}). */
  private static final int RCU_STEPS = 4;

  private static final long GAP_NS = 1_000_000; // the wake probe's writer period: the reader idles
  private static final long SLEEP_NS = 500_000;

  /**
   * The tools' kernel paths: 100-byte writes and reads (hackbench's default message), 3000 batches.
   */
  private static final String[] PATHS = {"paths", "100", "3000"};

  /**
   * The arm probe's timer: 100 us ahead, before the running tick's next expiry for all but a tenth
   * of the pairs at HZ 1000 (the median sees the reprogramming pairs), yet far longer than a pair.
   */
  private static final long ARM_AHEAD_NS = 100_000;

  /** Hops of each switch-refill ring ({@link #switchRefill}). */
  private static final long RING_HOPS = 200_000;

  /** Corrections of the halted wake's spread: each closes most of what the previous left. */
  private static final int SPREAD_ROUNDS = 4;

  /** The shortest gap the noise probe records: well above its loop's clock reads. */
  private static final long NOISE_MIN_NS = 3_000;

  private final HostDescription host;
  private final Bench probe;
  private final ModelRunner model;
  private final Progress progress;
  private final int hostA;
  private final int hostB;
  private final int modelB;
  private final int samples;

  /** Round trips of the cache-line probe ({@link #cacheLine}): 0.1-0.2 s on a quiet guest. */
  private final long lineRoundTrips;

  private final double noiseSeconds;
  private final Map<String, Sourced<Long>> params = new LinkedHashMap<>();
  private final Map<String, Map<String, Sourced<Long>>> toolParams = new LinkedHashMap<>();
  private final List<Calibration.Check> checks = new ArrayList<>();

  /** The host's figures by probe arguments, all measured before the model runs. */
  private final Map<List<String>, Map<String, String>> measured = new LinkedHashMap<>();

  private final BackgroundWindow backgroundWindow;
  private final double backgroundSeconds;

  /** The background counters before and after the idle window, if they could be read. */
  private List<BackgroundSample> background = List.of();

  private int done;

  private Calibrator(
      HostDescription host,
      Bench probe,
      ModelRunner model,
      Progress progress,
      int hostB,
      boolean quick,
      BackgroundWindow backgroundWindow) {
    this.host = host;
    this.backgroundWindow = backgroundWindow;
    // The idle window counts RCU softirqs at a few per second: 15 s for a count of a hundred.
    this.backgroundSeconds = quick ? 2 : 15;
    this.probe = probe;
    this.model = model;
    this.progress = progress;
    this.hostA = 0;
    this.hostB = hostB;
    this.modelB = host.nrCpus() > 1 ? 1 : 0;
    this.samples = quick ? 300 : 2000;
    this.lineRoundTrips = quick ? 100_000 : 1_000_000;
    // The host's multi-millisecond stalls come in bursts at well under one per second: a window
    // as long as three of check-host's 10 s runs sees their rate, a single one often none.
    this.noiseSeconds = quick ? 1 : 30;
  }

  /** Calibrates the machine {@code host} describes, which must be the one this runs on. */
  public static Calibration calibrate(
      HostDescription host, String version, boolean quick, Progress progress) throws HostException {
    return calibrate(
        host,
        Probe.build(),
        ModelRunner.on(MachineFileWriter.write(host, version)),
        secondCpu(),
        quick,
        progress,
        BackgroundWindow.of(new HostFiles(Path.of("/"))));
  }

  /**
   * Calibrates against {@code bench}'s figures, {@code hostB} its second CPU, the background
   * counters read through {@code window}.
   */
  static Calibration calibrate(
      HostDescription host,
      Bench bench,
      ModelRunner model,
      int hostB,
      boolean quick,
      Progress progress,
      BackgroundWindow window)
      throws HostException {
    return new Calibrator(host, bench, model, progress, hostB, quick, window).run();
  }

  /** A CPU that is not CPU 0's SMT sibling, for the cross-CPU probes (or 0 on one CPU). */
  private static int secondCpu() {
    HostFiles f = new HostFiles(Path.of("/"));
    BitSet siblings =
        f.text("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list")
            .map(CpuLists::parse)
            .orElseGet(BitSet::new);
    BitSet online =
        f.text("/sys/devices/system/cpu/online").map(CpuLists::parse).orElseGet(BitSet::new);
    for (int c = online.nextSetBit(1); c >= 0; c = online.nextSetBit(c + 1)) {
      if (!siblings.get(c)) {
        return c;
      }
    }
    return online.nextSetBit(1) > 0 ? online.nextSetBit(1) : 0;
  }

  private Calibration run() throws HostException {
    boolean guest = host.virtualized().value();
    boolean two = host.nrCpus() > 1;
    measureAll(guest, two);
    syscall();
    toolPaths();
    pipeSameCpu();
    switchRefill();
    if (guest) {
      timerExit();
    } else {
      skip("guest timer reprogramming: bare metal");
    }
    if (two) {
      cacheLine();
    } else {
      skip("cache-line transfer: one CPU");
    }
    if (two) {
      wakeBusy();
    } else {
      skip("wake latency of a busy CPU: one CPU");
    }
    if (guest) {
      timerBusy();
    } else {
      skip("guest timer delivery: bare metal");
    }
    if (guest && two) {
      ipiSend();
    } else {
      skip("guest IPI send: " + (guest ? "one CPU" : "bare metal"));
    }
    if (guest && two) {
      wakeIdle();
    } else {
      skip("halted vCPU wake: " + (guest ? "one CPU" : "bare metal"));
    }
    Sourced<NoiseSpec> noise = noise();
    if (guest && two) {
      wakeIdleSpread(noise);
    }
    predictions(two);
    background();
    return new Calibration(params, toolParams, noise, checks);
  }

  /**
   * Every host measurement first, while nothing else of schedlab runs (the model's runs would
   * compete for the CPUs, and the JVM's compiler threads run on after them).
   */
  private void measureAll(boolean guest, boolean two) throws HostException {
    progress("measuring: background kernel activity (idle window)");
    background = backgroundWindow.measure(backgroundSeconds).orElse(List.of());
    progress("measuring: system call round trip");
    real("syscall", "1000000");
    progress("measuring: the tools' kernel paths");
    real(PATHS);
    progress("measuring: pipe round trip on one CPU");
    real("pipe", "0", "0", "50000");
    progress("measuring: rings of 2, 3 and 12 processes on one CPU");
    real(ringArgs(2));
    real(ringArgs(3));
    real(ringArgs(12));
    if (two) {
      progress("measuring: wakeup of a busy CPU");
      real(hostArgs("wake", wakeArgs(1)));
      progress("measuring: pipe round trip across two CPUs");
      real("pipe", Integer.toString(hostA), Integer.toString(hostB), "10000");
      progress("measuring: one cache line passed between two CPUs");
      real(lineArgs());
    }
    if (guest) {
      progress("measuring: timer reprogramming");
      real(armArgs());
      progress("measuring: timer on a busy vCPU");
      real(hostArgs("timer", samples + " " + SLEEP_NS + " 1"));
    }
    if (guest && two) {
      progress("measuring: wakeup of a halted vCPU");
      real(hostArgs("wake", wakeArgs(0)));
    }
    progress("measuring: timer on an idle CPU");
    real(hostArgs("timer", samples + " " + SLEEP_NS + " 0"));
    progress("measuring: noise on every CPU");
    real(noiseArgs());
  }

  /** The probe's figures for {@code args}: measured once, then remembered. */
  private Map<String, String> real(String... args) throws HostException {
    List<String> key = List.of(args);
    Map<String, String> m = measured.get(key);
    if (m == null) {
      m = probe.run(args);
      measured.put(key, m);
    }
    return m;
  }

  /**
   * The noise probe's arguments: every gap of 3 us or more; the tick's own are told apart later by
   * their phase ({@link NoiseProfile}).
   */
  private String[] noiseArgs() {
    return new String[] {"noise", Double.toString(noiseSeconds), Long.toString(NOISE_MIN_NS)};
  }

  /**
   * getppid() round trip: one kernel entry and one exit per call, so each is half of what the model
   * lacks with both at 0 (mitigations on the entry path included).
   */
  private void syscall() throws HostException {
    progress("model: system call entry and exit");
    long r = Probe.number(real("syscall", "1000000"), "ns_per_call");
    long s0 = model("syscall 20000", "ns_per_call", "cost.syscall_entry=0", "cost.exit_to_user=0");
    long each = Math.max(0, (r - s0) / 2);
    String why =
        "schedlab-probe syscall: getppid() "
            + r
            + " ns; the model without entry and exit "
            + s0
            + " ns; (R - S0) / 2 for each";
    set("cost.syscall_entry", each, why);
    set("cost.exit_to_user", each, why);
    check(
        "syscall: ns per getppid()",
        r,
        model("syscall 20000", "ns_per_call"),
        "cost.syscall_entry");
  }

  /**
   * The tools' own kernel paths, measured with nobody asleep (one process writes a batch into a
   * socketpair or a pipe and reads it back): each call's median less getppid()'s, the bare entry
   * and exit, which the model charges apart. Every tool whose parameter table names the path gets
   * the figure.
   */
  private void toolPaths() throws HostException {
    progress("model: the tools' kernel paths");
    Map<String, String> o = real(PATHS);
    long entryExit = Probe.number(o, "getppid_p50");
    Map<String, Sourced<Long>> measured = new LinkedHashMap<>();
    for (String path : List.of("socket_write", "socket_read", "pipe_write", "pipe_read")) {
      long r = Probe.number(o, path + "_p50");
      measured.put(
          path,
          Sourced.of(
              Math.max(0, r - entryExit),
              String.format(
                  Locale.ROOT,
                  "calibrated: schedlab-probe %s: %s() of %s bytes, median %d ns per call over"
                      + " batches of 64 with nobody asleep, less getppid()'s %d ns",
                  String.join(" ", PATHS),
                  path.replace('_', ' '),
                  PATHS[1],
                  r,
                  entryExit)));
    }
    for (WorkloadTool tool : Tools.all()) {
      for (ToolParam p : tool.params()) {
        Sourced<Long> v = measured.get(p.name());
        if (v != null) {
          toolParams.computeIfAbsent(tool.name(), t -> new LinkedHashMap<>()).put(p.name(), v);
        }
      }
    }
  }

  /**
   * Pipe ping-pong on one CPU: a round trip switches between the two processes twice (write wakes
   * the reader, the writer blocks in read or is preempted by the reader), so the switch costs half
   * the gap. Which round trips preempt moves a little with the cost (a reader woken while delayed
   * keeps the lag the writer's unaccounted run gives it), so the first estimate is corrected once
   * by the model's remaining gap.
   */
  private void pipeSameCpu() throws HostException {
    progress("model: context switch");
    long r = Probe.number(real("pipe", "0", "0", "50000"), "ns_per_roundtrip");
    long s0 = model("pipe 0 0 5000", "ns_per_roundtrip", "cost.ctx_switch=0");
    long first = Math.max(0, (r - s0) / 2);
    long s1 = model("pipe 0 0 5000", "ns_per_roundtrip", "cost.ctx_switch=" + first);
    set(
        "cost.ctx_switch",
        Math.max(0, first + (r - s1) / 2),
        "schedlab-probe pipe 0 0: "
            + r
            + " ns per round trip; the model without the switch cost "
            + s0
            + " ns, with (R - S0) / 2 = "
            + first
            + " ns "
            + s1
            + " ns; two process switches per round trip: (R - S0) / 2 + (R - S1) / 2");
    check(
        "pipe on one CPU: ns per round trip",
        r,
        model("pipe 0 0 5000", "ns_per_roundtrip"),
        "cost.ctx_switch");
  }

  /**
   * The cache refill of a switch ({@code latency.switch_refill}, {@code
   * latency.switch_refill_keep_pct}), from rings of 2 (nothing evicted), 3 (one other task in
   * between) and 12 processes. A ring of n processes on one CPU costs the same per hop in the model
   * whatever n, but for the refill of a task after the n − 1 others ran, refill × (1 − keep^(n−2)).
   * So the ring of three over the ring of two is refill × (1 − keep) and the ring of twelve refill
   * × (1 − keep^10): their ratio gives keep, and then the refill; no model run is needed. Nothing
   * measurable (a ring of three no dearer than two): no refill.
   */
  private void switchRefill() throws HostException {
    progress("derived: switch refill");
    long two = Probe.number(real(ringArgs(2)), "ns_per_hop");
    long three = Probe.number(real(ringArgs(3)), "ns_per_hop");
    long twelve = Probe.number(real(ringArgs(12)), "ns_per_hop");
    long a = three - two;
    long b = twelve - two;
    String what =
        String.format(
            Locale.ROOT,
            "schedlab-probe ring %d N %d: %d / %d / %d ns per hop with N = 2 / 3 / 12 processes",
            hostB,
            RING_HOPS,
            two,
            three,
            twelve);
    if (a <= 0 || b <= 0) {
      set("latency.switch_refill", 0, what + "; no refill measurable");
      set("latency.switch_refill_keep_pct", 0, what + "; no refill measurable");
      return;
    }
    double keep = keepOf((double) b / a);
    long refill = Math.round(a / (1 - keep));
    String how =
        "; refill x (1 - keep) = "
            + a
            + " ns and refill x (1 - keep^10) = "
            + b
            + " ns over the ring of two";
    set("latency.switch_refill", refill, what + how);
    set("latency.switch_refill_keep_pct", Math.round(100 * keep), what + how);
  }

  /**
   * The cost of one cache-line transfer between two CPUs of one LLC. Two processes pass a line back
   * and forth; in each handoff the writer takes the line from the spinning reader's copy, and the
   * reader fetches it back. In the model ({@code CacheLine}) each of those is one transfer: a write
   * of a line another CPU holds, a read of a line another CPU wrote. A round trip is four, so a
   * transfer is a quarter of it; no model run. A machine whose CPUs 0 and B may be in different
   * LLCs is skipped.
   */
  private void cacheLine() throws HostException {
    boolean oneLlc =
        host.sockets().value() == 1
            && (host.coresPerLlc().value() == 0
                || host.coresPerLlc().value() >= host.coresPerSocket().value());
    if (!oneLlc) {
      skip("cache-line transfer: CPUs 0 and " + hostB + " may be in different LLCs");
      return;
    }
    progress("derived: cache-line transfer");
    long roundTrip = Probe.number(real(lineArgs()), "ns_per_roundtrip");
    set(
        "latency.cacheline_same_llc",
        roundTrip / 4,
        String.format(
            Locale.ROOT,
            "schedlab-probe %s: one line passed back and forth, median %d ns per round trip;"
                + " four transfers each (a write of the line the other CPU holds, a read of it"
                + " back, each way): a quarter",
            String.join(" ", lineArgs()),
            roundTrip));
  }

  private String[] lineArgs() {
    return new String[] {
      "line", Integer.toString(hostA), Integer.toString(hostB), Long.toString(lineRoundTrips)
    };
  }

  /** The keep k in [0, 0.99] with (1 − k^10) / (1 − k) = {@code ratio} (1 + k + ... + k^9). */
  static double keepOf(double ratio) {
    double lo = 0;
    double hi = 0.99;
    for (int i = 0; i < 60; i++) {
      double k = (lo + hi) / 2;
      double sum = (1 - Math.pow(k, 10)) / (1 - k);
      if (sum < ratio) {
        lo = k;
      } else {
        hi = k;
      }
    }
    return (lo + hi) / 2;
  }

  private String[] ringArgs(int n) {
    return new String[] {
      "ring", Integer.toString(hostB), Integer.toString(n), Long.toString(RING_HOPS)
    };
  }

  /**
   * A guest's clockevent write. Arming a timer due before the running tick's next expiry reprograms
   * the local-APIC timer ({@code hrtimer_reprogram()}), disarming it reprograms it back ({@code
   * __remove_hrtimer()} of the next timer); a timer due after the tick does neither, on the same
   * path otherwise. Each write of the TSC-deadline MSR exits to the host, so an arm-and-disarm pair
   * of the first kind costs two exits more: half the difference of the medians. The model charges
   * the same two exits and nothing else apart ({@code CostModel}: a timer that becomes the next
   * event, the cancel of the next event), so no model run is needed.
   */
  private void timerExit() throws HostException {
    progress("derived: guest timer reprogramming");
    Map<String, String> o = real(armArgs());
    long near = Probe.number(o, "near_p50");
    long far = Probe.number(o, "far_p50");
    set(
        "cost.vm_timer_exit",
        Math.max(0, (near - far) / 2),
        String.format(
            Locale.ROOT,
            "schedlab-probe %s: a timerfd armed %d us ahead and disarmed, median %d ns per pair;"
                + " armed 10 s ahead (behind the tick: no reprogramming) %d ns; two local-APIC"
                + " timer writes apart: (near - far) / 2",
            String.join(" ", armArgs()),
            ARM_AHEAD_NS / 1000,
            near,
            far));
  }

  /**
   * Arm-and-disarm pairs on CPU B, ten per sample of the latency probes (each takes microseconds).
   */
  private String[] armArgs() {
    return new String[] {
      "arm", Integer.toString(hostB), Integer.toString(10 * samples), Long.toString(ARM_AHEAD_NS)
    };
  }

  /**
   * Wakeup of a CPU running a SCHED_IDLE spinner: the waker's IPI preempts it. With the IPI's
   * delivery at 0 the model lacks exactly that latency (a guest: the host's injection included).
   */
  private void wakeBusy() throws HostException {
    progress("model: IPI delivery");
    String args = wakeArgs(1);
    fromGap(
        "latency.ipi_same_socket",
        hostArgs("wake", args),
        "wake 0 " + modelB + " " + args,
        "p50",
        "schedlab-probe wake, busy target: median %d ns from the write to the reader back in user"
            + " space; the model with an instant IPI %d ns; R - S0",
        "wake a busy CPU: median ns");
  }

  /**
   * The writer's write() in the busy-target wake probe sends the reschedule IPI: a guest's ICR
   * write exits to the host, which the model with that exit at 0 lacks.
   */
  private void ipiSend() throws HostException {
    progress("model: guest IPI send");
    String args = wakeArgs(1);
    fromGap(
        "cost.vm_ipi_exit",
        hostArgs("wake", args),
        "wake 0 " + modelB + " " + args,
        "write_p50",
        "schedlab-probe wake, busy target: median write() %d ns, which sends the reschedule IPI;"
            + " the model without the exit %d ns; R - S0",
        "write waking a busy CPU: median ns");
  }

  /**
   * A timer on a vCPU busy with a spinner: the expiry exits to the host, which injects the vector;
   * the model with that delivery at 0 lacks it.
   */
  private void timerBusy() throws HostException {
    progress("model: guest timer delivery");
    String args = samples + " " + SLEEP_NS + " 1";
    fromGap(
        "latency.vm_timer_delivery",
        hostArgs("timer", args),
        "timer " + modelB + " " + args,
        "p50",
        "schedlab-probe timer, busy vCPU: median %d ns late; the model with an instant injection"
            + " %d ns; R - S0",
        "timer on a busy vCPU: median ns late");
  }

  /** Wakeup of a halted vCPU: the IPI, then the host wakes the vCPU's thread. */
  private void wakeIdle() throws HostException {
    progress("model: halted vCPU wake");
    String args = wakeArgs(0);
    fromGap(
        "latency.vm_halted_wake",
        hostArgs("wake", args),
        "wake 0 " + modelB + " " + args,
        "p50",
        "schedlab-probe wake, idle target (1 ms apart, so it halts): median %d ns; the model with"
            + " an instant host wake %d ns; R - S0",
        "wake a halted vCPU: median ns");
  }

  /**
   * The halted vCPU's wakeup around its median, from the same probe run: how far the host's 10th,
   * 90th and 99th percentiles lie from its median. The model's own paths and the measured noise
   * (which stalls a halted vCPU too) spread it already, and spreads do not add, so each is
   * corrected by what the model with the noise still lacks, a few times over.
   */
  private void wakeIdleSpread(Sourced<NoiseSpec> noise) throws HostException {
    progress("model: halted vCPU wake spread");
    ModelRunner noisy =
        ModelRunner.on(MachineFileWriter.write(host, Map.of(), Map.of(), noise, "calibration"));
    String args = "wake 0 " + modelB + " " + wakeArgs(0);
    Map<String, String> o = real(hostArgs("wake", wakeArgs(0)));
    Quantiles r =
        new Quantiles(
            Probe.number(o, "p10"),
            Probe.number(o, "p50"),
            Probe.number(o, "p90"),
            Probe.number(o, "p99"));
    long below10 = 0;
    long above90 = 0;
    long above99 = 0;
    Quantiles s = modelQuantiles(noisy, args, 0, 0, 0);
    String first = String.format(Locale.ROOT, "the model with the noise and no spread %s", s);
    for (int round = 0; round < SPREAD_ROUNDS; round++) {
      below10 = Math.max(0, below10 + (r.p50 - r.p10) - (s.p50 - s.p10));
      above90 = Math.max(0, above90 + (r.p90 - r.p50) - (s.p90 - s.p50));
      above99 = Math.max(above90, above99 + (r.p99 - r.p50) - (s.p99 - s.p50));
      s = modelQuantiles(noisy, args, below10, above90, above99);
    }
    String why =
        String.format(
            Locale.ROOT,
            "schedlab-probe wake, idle target: %s; %s; each spread from the median corrected by"
                + " what the model still misses, %d times",
            r,
            first,
            SPREAD_ROUNDS);
    set("latency.vm_halted_wake_spread_p10", below10, why);
    set("latency.vm_halted_wake_spread_p90", above90, why);
    set("latency.vm_halted_wake_spread_p99", above99, why);
    check(
        "wake a halted vCPU: 10th percentile ns",
        r.p10,
        s.p10,
        "latency.vm_halted_wake_spread_p10");
    check(
        "wake a halted vCPU: 99th percentile ns",
        r.p99,
        s.p99,
        "latency.vm_halted_wake_spread_p99");
  }

  /** A probe's latency percentiles, in ns. */
  private record Quantiles(long p10, long p50, long p90, long p99) {
    @Override
    public String toString() {
      return "p10/p50/p90/p99 " + p10 + "/" + p50 + "/" + p90 + "/" + p99 + " ns";
    }
  }

  /**
   * A latency or cost the model lacks with {@code param} at 0: set it to the real figure R less the
   * model's without it S0 ({@code why} formats R and S0), then check the calibrated model against
   * R.
   */
  private void fromGap(
      String param, String[] probe, String modelArgs, String field, String why, String figure)
      throws HostException {
    long r = Probe.number(real(probe), field);
    long s0 = model(modelArgs, field, param + "=0");
    set(param, Math.max(0, r - s0), String.format(Locale.ROOT, why, r, s0));
    check(figure, r, model(modelArgs, field), param);
  }

  /**
   * The noise profile: a task spinning on each CPU records the gaps in its clock readings. Gaps
   * shorter than the model's own interruptions (a tick, with a guest's timer exit) are left out.
   */
  private Sourced<NoiseSpec> noise() throws HostException {
    progress("model: noise profile");
    Map<String, String> o = real(noiseArgs());
    double seconds = Double.parseDouble(o.getOrDefault("seconds", "0"));
    long cpus = Probe.number(o, "cpus");
    List<long[]> perCpu = new ArrayList<>();
    for (int c = 0; c < cpus; c++) {
      String[] items = o.getOrDefault("cpu" + c, "").split(",", -1);
      long[] pairs = new long[2 * items.length];
      int n = 0;
      for (String item : items) {
        int colon = item.indexOf(':');
        if (colon > 0) {
          pairs[n++] = Long.parseLong(item.substring(0, colon).trim());
          pairs[n++] = Long.parseLong(item.substring(colon + 1).trim());
        }
      }
      perCpu.add(java.util.Arrays.copyOf(pairs, n));
    }
    long tickNs = 1_000_000_000L / host.hz().value();
    NoiseProfile.Result r = NoiseProfile.of(perCpu, seconds, tickNs, NOISE_MIN_NS);
    String how =
        "1".equals(o.get("fifo"))
            ? "a SCHED_FIFO 99 task spinning on each of the " + cpus + " CPUs at once"
            : "a SCHED_OTHER task spinning on each of the "
                + cpus
                + " CPUs in turn (no root: other tasks may show as noise)";
    return Sourced.of(
        r.noise(),
        "schedlab-probe noise: "
            + how
            + " for "
            + noiseSeconds
            + " s saw "
            + r.tickGaps()
            + " gaps at its tick's phase (median "
            + r.tickGapMedianNs()
            + " ns; the model makes those itself) and "
            + r.otherGaps()
            + " others of 3 us or more, "
            + "binned by length (factors of 2), rates per second per CPU");
  }

  /** Figures no parameter was set from: what the calibrated model predicts. */
  private void predictions(boolean two) throws HostException {
    progress("model: predictions (pipe across CPUs, timer on an idle CPU)");
    if (two) {
      long r =
          Probe.number(
              real("pipe", Integer.toString(hostA), Integer.toString(hostB), "10000"),
              "ns_per_roundtrip");
      check(
          "pipe across two CPUs: ns per round trip",
          r,
          model("pipe 0 " + modelB + " 2000", "ns_per_roundtrip"),
          "");
    }
    String args = samples + " " + SLEEP_NS + " 0";
    long r = Probe.number(real(hostArgs("timer", args)), "p50");
    check(
        "timer on an idle CPU: median ns late",
        r,
        model("timer " + modelB + " " + args, "p50"),
        "");
  }

  private String wakeArgs(int busy) {
    return samples + " " + GAP_NS + " " + busy;
  }

  /** The probe's arguments on the host's CPUs: {@code wake A B ...} or {@code timer B ...}. */
  private String[] hostArgs(String kind, String args) {
    List<String> out = new ArrayList<>();
    if (kind.equals("wake")) {
      out.addAll(List.of("wake", Integer.toString(hostA), Integer.toString(hostB)));
    } else {
      out.addAll(List.of("timer", Integer.toString(hostB)));
    }
    out.addAll(List.of(args.split(" ")));
    return out.toArray(new String[0]);
  }

  private long model(String probeArgs, String key, String... extra) throws HostException {
    return Math.round(modelRun(model, probeArgs, extra).report("schedlab-probe", key));
  }

  /**
   * The percentiles of {@code runner}'s probe for {@code probeArgs} with the halted wake's spread.
   */
  private Quantiles modelQuantiles(
      ModelRunner runner, String probeArgs, long below10, long above90, long above99)
      throws HostException {
    ModelRunner.Outcome o =
        modelRun(
            runner,
            probeArgs,
            "latency.vm_halted_wake_spread_p10=" + below10,
            "latency.vm_halted_wake_spread_p90=" + above90,
            "latency.vm_halted_wake_spread_p99=" + above99);
    return new Quantiles(
        Math.round(o.report("schedlab-probe", "p10")),
        Math.round(o.report("schedlab-probe", "p50")),
        Math.round(o.report("schedlab-probe", "p90")),
        Math.round(o.report("schedlab-probe", "p99")));
  }

  /** The model's probe with the kernel paths measured so far. */
  private String[] probeTool(String probeArgs) {
    Map<String, Sourced<Long>> own = toolParams.getOrDefault("schedlab-probe", Map.of());
    if (own.isEmpty()) {
      return new String[] {"schedlab-probe", probeArgs};
    }
    List<String> kv = new ArrayList<>();
    own.forEach((k, v) -> kv.add(k + ": " + v.value() + "ns"));
    return new String[] {"schedlab-probe", probeArgs, String.join(", ", kv)};
  }

  private ModelRunner.Outcome modelRun(ModelRunner runner, String probeArgs, String... extra)
      throws HostException {
    List<String> sets = new ArrayList<>();
    params.forEach((k, v) -> sets.add(k + "=" + v.value()));
    sets.addAll(List.of(extra));
    return runner.run("calibrate", List.<String[]>of(probeTool(probeArgs)), MODEL_RUN_NS, 1, sets);
  }

  /**
   * The background's parameters from the idle window's counters ({@link BackgroundMeasure}), set
   * last: no calibration step runs with them.
   */
  private void background() throws HostException {
    if (background.size() != 2) {
      skip("background kernel activity: /proc/softirqs unreadable");
      return;
    }
    BackgroundSample before = background.get(0);
    BackgroundSample after = background.get(1);
    params.putAll(
        BackgroundMeasure.params(
            before, after, backgroundSeconds, host.nrCpus(), host.hz().value()));
    Sourced<Long> rcu = params.get("bg.rcu_callbacks_milli");
    if (rcu != null && rcu.value() > 0) {
      params.put(
          "bg.rcu_callbacks_milli",
          invertRcu(rcu, (double) (after.rcu() - before.rcu()) / (after.timer() - before.timer())));
    }
  }

  /**
   * The callbacks per expiry that give the measured RCU softirqs per TIMER softirq: a callback
   * costs the model several RCU softirqs (the request, the grace period noted, its end and the
   * invocation; docs/model.md, RCU), and close callbacks share a grace period, so the estimate (at
   * first one softirq per callback) is scaled by the measured ratio over the model's in an idle
   * window of the model at that estimate, up to {@value #RCU_STEPS} times, until the model is
   * within 3 % of the measurement; the closest estimate is kept (the window's count is noisy).
   */
  private Sourced<Long> invertRcu(Sourced<Long> first, double measured) throws HostException {
    double modelled = idleRcuPerTimer();
    if (modelled <= 0) {
      return first;
    }
    StringBuilder why =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s; x RCU / TIMER measured (%.3f) / the model's in an idle window at the"
                    + " estimate, from %d (%.3f)",
                first.source(),
                measured,
                first.value(),
                modelled));
    long value = first.value();
    long best = value;
    double bestError = Math.abs(modelled / measured - 1);
    for (int step = 0; step < RCU_STEPS && bestError > 0.03; step++) {
      value = Math.max(1, Math.round(value * measured / modelled));
      params.put("bg.rcu_callbacks_milli", Sourced.of(value, ""));
      modelled = idleRcuPerTimer();
      why.append(String.format(Locale.ROOT, ", %d (%.3f)", value, modelled));
      double error = Math.abs(modelled / measured - 1);
      if (error < bestError) {
        best = value;
        bestError = error;
      }
    }
    why.append(String.format(Locale.ROOT, "; the closest: %d", best));
    return Sourced.of(best, why.toString());
  }

  /** RCU softirqs per TIMER softirq in an idle window of the model, with the parameters so far. */
  private double idleRcuPerTimer() throws HostException {
    List<String> sets = new ArrayList<>();
    params.forEach((k, v) -> sets.add(k + "=" + v.value()));
    ModelRunner.Outcome o = model.run("calibrate-background", List.of(), RCU_WINDOW_NS, 1, sets);
    double timer = o.metric("softirq.timer");
    return timer > 0 ? o.metric("softirq.rcu") / timer : 0;
  }

  private void set(String key, long value, String why) {
    params.put(key, Sourced.of(value, "calibrated: " + why));
  }

  private void check(String figure, long real, long modelled, String param) {
    checks.add(new Calibration.Check(figure, real, modelled, param));
  }

  private void skip(String what) {
    progress("skipped: " + what);
  }

  private void progress(String what) {
    progress.step(done++, STEPS, what);
  }
}
