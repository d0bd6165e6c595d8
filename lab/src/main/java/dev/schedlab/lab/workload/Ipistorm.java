package dev.schedlab.lab.workload;

import dev.schedlab.engine.config.CpuList;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * ipistorm (Anton Blanchard's kernel module), module parameters as {@code key=value} words: {@code
 * ipistorm: "numipi=100000 single=1 offset=8 cpulist=8 wait=1"}.
 *
 * <p>Models: one kthread per sender CPU, bound with kthread_bind (SCHED_NORMAL nice 0), calling
 * {@code smp_call_function_single((cpu + offset) % ncpus, do_nothing, wait)} in a loop ({@code
 * single=1}) or {@code smp_call_function()} ({@code single=0}: a single-target call to every other
 * CPU, waiting on the last), with {@code delay} us between calls. Upstream the loop runs for {@code
 * timeout} seconds; the modified variant of the SM_IDLE series does exactly {@code numipi} calls
 * from the {@code cpulist} CPUs and reports the runtime. Does not model: the module's start-up
 * completion barrier, {@code mask}.
 */
public final class Ipistorm implements WorkloadTool {
  static final ToolParam LOOP =
      ToolParam.ns(
          "loop_overhead",
          100,
          "[estimate] kernel-model.md 3.0: loopOverhead ~0.1 us",
          "sender loop overhead per call");
  static final ToolParam FN =
      ToolParam.ns(
          "fn_cost",
          0,
          "[src] do_nothing_ipi() is empty",
          "cost of the called function on the target");

  private static final List<String> KEYS =
      List.of("numipi", "single", "offset", "cpulist", "wait", "timeout", "delay");

  @Override
  public String name() {
    return "ipistorm";
  }

  @Override
  public String summary() {
    return "ipistorm: smp_call_function_single storms; runtime of a fixed count (modified variant)";
  }

  @Override
  public List<ToolParam> params() {
    return List.of(LOOP, FN);
  }

  @Override
  public ToolExpansion expand(ToolContext ctx, String line) throws ToolArgsException {
    ToolArgs a = ToolArgs.parse(name(), "", List.of());
    Map<String, String> kv = new LinkedHashMap<>();
    for (String w : line == null || line.isBlank() ? new String[0] : line.trim().split("\\s+")) {
      int eq = w.indexOf('=');
      if (eq <= 0) {
        throw a.error("expected module parameters key=value, got '" + w + "'");
      }
      String k = w.substring(0, eq);
      if (!KEYS.contains(k)) {
        throw a.error("unknown parameter " + k + "; expected one of " + String.join(", ", KEYS));
      }
      kv.put(k, w.substring(eq + 1));
    }
    int n = ctx.nrCpus();
    long numipi =
        kv.containsKey("numipi")
            ? a.integerOf("numipi", kv.get("numipi"), 1, Integer.MAX_VALUE)
            : 0;
    boolean single = bool(a, kv, "single", false);
    boolean wait = bool(a, kv, "wait", true);
    int offset =
        (int) (kv.containsKey("offset") ? a.integerOf("offset", kv.get("offset"), 0, 1 << 20) : 1);
    long delayUs =
        kv.containsKey("delay") ? a.integerOf("delay", kv.get("delay"), 0, 1_000_000) : 0;
    if (kv.containsKey("timeout")) {
      a.integerOf("timeout", kv.get("timeout"), 1, 1_000_000);
    }
    BitSet senders;
    try {
      senders = kv.containsKey("cpulist") ? CpuList.parse(kv.get("cpulist"), n) : all(n);
    } catch (IllegalArgumentException e) {
      throw a.error("cpulist: " + e.getMessage());
    }
    List<TaskSpec> tasks = new ArrayList<>();
    List<Integer> cpus = senders.stream().boxed().toList();
    for (int cpu : cpus) {
      List<StepSpec> body = new ArrayList<>();
      if (single) {
        body.add(new StepSpec.Call((cpu + offset) % n, ctx.param(FN), wait));
      } else {
        List<Integer> others = new ArrayList<>();
        for (int t = 0; t < n; t++) {
          if (t != cpu) {
            others.add(t);
          }
        }
        for (int i = 0; i < others.size(); i++) {
          body.add(new StepSpec.Call(others.get(i), ctx.param(FN), wait && i == others.size() - 1));
        }
      }
      body.add(Tasks.user(ctx.param(LOOP)));
      if (delayUs > 0) {
        body.add(new StepSpec.Sleep(Dist.uniform(delayUs * 1000, delayUs * 1000 + 1000)));
      }
      List<StepSpec> program = numipi > 0 ? Tasks.runThenExit(numipi, body) : body;
      tasks.add(
          new TaskSpec(
              ctx.id() + "/" + cpu,
              1,
              "normal",
              0,
              0,
              0,
              0,
              0,
              Integer.toString(cpu),
              false,
              true,
              "own",
              0,
              program));
    }
    if (tasks.isEmpty()) {
      throw a.error("cpulist selects no CPU");
    }
    String target =
        single
            ? cpus.size() == 1 ? "CPU " + (cpus.get(0) + offset) % n : "CPU+" + offset
            : "all other CPUs";
    return new ToolExpansion(
        tasks,
        Map.of(),
        -1,
        new Report(numipi, cpus.size(), single, wait, CpuList.format(senders), target));
  }

  private static boolean bool(ToolArgs a, Map<String, String> kv, String k, boolean def)
      throws ToolArgsException {
    return kv.containsKey(k) ? a.integerOf(k, kv.get(k), 0, 1) == 1 : def;
  }

  private static BitSet all(int n) {
    BitSet b = new BitSet();
    b.set(0, n);
    return b;
  }

  /** Runtime of the fixed-count variant, or the call rate of the timed upstream mode. */
  record Report(
      long numipi, int senders, boolean single, boolean waits, String cpulist, String target)
      implements ToolReport {
    @Override
    public Map<String, Object> json(RunResult r) {
      Map<String, Object> m = new TreeMap<>();
      long calls = Raw.counter(r, "csd.calls");
      m.put("calls", calls);
      m.put("senders", senders);
      if (numipi > 0) {
        m.put("runtime_s", Raw.counter(r, "task.last_exit_ns") / 1e9);
      }
      double secs = (numipi > 0 ? Raw.counter(r, "task.last_exit_ns") : r.simNs()) / 1e9;
      m.put("calls_per_s", secs == 0 ? 0 : Math.round(calls / secs));
      return m;
    }

    @Override
    public String text(RunResult r) {
      long calls = Raw.counter(r, "csd.calls");
      String fn = single ? "smp_call_function_single()" : "smp_call_function()";
      if (numipi > 0) {
        return String.format(
            Locale.ROOT,
            "ipistorm: %d x %s (wait=%d) from CPUs %s to %s%nipistorm: runtime %.6f s%n",
            numipi * senders,
            fn,
            waits ? 1 : 0,
            cpulist,
            target,
            Raw.counter(r, "task.last_exit_ns") / 1e9);
      }
      double secs = r.simNs() / 1e9;
      return String.format(
          Locale.ROOT,
          "ipistorm: %d calls in %.3f s (%.0f calls/s), %s (wait=%d)%n",
          calls,
          secs,
          secs == 0 ? 0 : calls / secs,
          fn,
          waits ? 1 : 0);
    }
  }
}
