package dev.schedlab.lab.scenario;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.params.ParamTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Loads a scenario from YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}), strictly:
 * unknown fields, ill-typed and out-of-range values fail with a {@link ScenarioException} naming
 * the file, line, column and field path. {@code --set} overrides are applied to the tree before
 * binding. Every field and default is documented in {@code docs/scenarios.md}.
 */
public final class ScenarioLoader {
  /** Default seed. */
  public static final long DEFAULT_SEED = 1;

  /** Default simulated duration: 1 s. */
  public static final long DEFAULT_DURATION_NS = 1_000_000_000L;

  /** Default machine preset. */
  public static final String DEFAULT_PRESET = "small-x86";

  /** Default preemption model. */
  public static final String DEFAULT_PREEMPT = KernelSpec.DEFAULT_PREEMPT;

  /** Default tick rate. */
  public static final int DEFAULT_HZ = 1000;

  private static final String[] TOP = {
    "name", "seed", "duration", "machine", "kernel", "tools", "workload", "plugins"
  };
  static final String[] KERNEL = {
    "preempt", "hz", "features", "params", "latency_limit", "rt", "cgroups", "autogroup"
  };

  private ScenarioLoader() {}

  /** Loads {@code file}. */
  public static Scenario load(Path file) throws ScenarioException {
    return load(file, List.of());
  }

  /** Loads {@code file} with {@code --set key=value} overrides applied in order. */
  public static Scenario load(Path file, List<String> overrides) throws ScenarioException {
    return load(file, null, overrides);
  }

  /**
   * Loads {@code file} on the machine of {@code machineFile} ({@code --machine}; null keeps the
   * scenario's), then applies the {@code --set key=value} overrides in order.
   */
  public static Scenario load(Path file, @Nullable Path machineFile, List<String> overrides)
      throws ScenarioException {
    String source = file.toString();
    String fileName = file.getFileName() == null ? source : file.getFileName().toString();
    int dot = fileName.lastIndexOf('.');
    String ext = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
    if (!ext.equals("yaml") && !ext.equals("yml") && !ext.equals("json")) {
      throw new ScenarioException(
          source + ": unsupported file type; expected .yaml, .yml or .json");
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ScenarioException(source + ": no such file", e);
    } catch (IOException e) {
      throw new ScenarioException(source + ": cannot read: " + e, e);
    }
    Path dir = file.toAbsolutePath().getParent();
    return parse(
        source,
        text,
        !ext.equals("json"),
        dot < 0 ? fileName : fileName.substring(0, dot),
        dir == null ? Path.of("") : dir,
        machineFile,
        overrides);
  }

  /**
   * Parses scenario {@code text}.
   *
   * @param source file name used in messages
   * @param yaml YAML when true, JSON otherwise
   * @param defaultName scenario name when the text has none
   * @param overrides {@code key=value} overrides
   */
  public static Scenario parse(
      String source, String text, boolean yaml, String defaultName, List<String> overrides)
      throws ScenarioException {
    return parse(source, text, yaml, defaultName, Path.of(""), null, overrides);
  }

  /**
   * Parses scenario {@code text}: a {@code machine.file} resolves against {@code baseDir}, then
   * {@code machineFile} ({@code --machine}, may be null) and the overrides apply, in that order.
   */
  public static Scenario parse(
      String source,
      String text,
      boolean yaml,
      String defaultName,
      Path baseDir,
      @Nullable Path machineFile,
      List<String> overrides)
      throws ScenarioException {
    List<String> rtAppNotes = new ArrayList<>();
    LocatedTree tree = yaml ? null : rtApp(source, text, rtAppNotes);
    if (tree == null) {
      tree = LocatedTree.parse(source, text, yaml);
    }
    if (tree.root().isObject()) {
      MachineFile.resolveInScenario(tree, baseDir);
      if (machineFile != null) {
        MachineFile.applyOverride(tree, machineFile);
      }
    }
    Overrides.apply(tree, overrides);
    if (!yaml && RtAppBinder.isRtApp(tree.root())) {
      return RtAppBinder.scenario(tree, defaultName, rtAppNotes);
    }
    Obj top = new Val(tree, "", tree.root()).object(TOP);
    String name = top.name("name", defaultName);
    long seed = top.integer("seed", DEFAULT_SEED);
    long duration = top.durationNs("duration", DEFAULT_DURATION_NS);
    if (duration <= 0) {
      throw top.get("duration").error("expected a duration > 0");
    }
    MachineSpec machine = MachineBinder.bind(top.get("machine"));
    KernelSpec kernel = kernel(top.get("kernel"));
    TaskBinder binder =
        new TaskBinder(
            machine,
            duration,
            1_000_000_000L / kernel.hz(),
            top.has("tools") ? ToolBinder.defaults(top.get("tools")) : Map.of());
    WorkloadSpec workload = binder.workload(top.get("workload"));
    kernel = withLatencyRequests(kernel, binder.latencyRequests);
    if (binder.rtAppAt != null) {
      kernel = withCgroups(kernel, binder.rtAppGroups, binder.rtAppAt);
    }
    checkCgroupSteps(workload, kernel, top.get("workload"));
    List<PluginRef> plugins = top.has("plugins") ? plugins(top.get("plugins")) : List.of();
    return new Scenario(name, seed, duration, machine, kernel, workload, plugins);
  }

  /**
   * A JSON file read in rt-app's dialect when it is an rt-app file; null for another JSON scenario
   * (read strictly). An rt-app file that is not even valid in the dialect is refused here.
   */
  private static @Nullable LocatedTree rtApp(String source, String text, List<String> notes)
      throws ScenarioException {
    try {
      LocatedTree tree = RtAppBinder.parse(source, text, notes);
      return RtAppBinder.isRtApp(tree.root()) ? tree : null;
    } catch (ScenarioException e) {
      if (text.contains("\"tasks\"") || text.contains("\"global\"")) {
        throw e;
      }
      return null;
    }
  }

  /** PM QoS keeps the lowest request: the scenario's limit and every tool's. */
  static KernelSpec withLatencyRequests(KernelSpec k, List<Long> requests) {
    long limit = k.latencyLimitNs();
    for (long r : requests) {
      limit = Math.min(limit, r);
    }
    return limit == k.latencyLimitNs()
        ? k
        : new KernelSpec(
            k.preempt(),
            k.hz(),
            k.features(),
            k.params(),
            limit,
            k.rt(),
            k.cgroups(),
            k.autogroup());
  }

  /**
   * {@code k} with the task groups a workload made ({@code extra}, an rt-app file's {@code
   * taskgroup} keys) after its own; a name both define is refused at {@code where}.
   */
  static KernelSpec withCgroups(KernelSpec k, List<CgroupSpec> extra, Val where)
      throws ScenarioException {
    if (extra.isEmpty()) {
      return k;
    }
    List<CgroupSpec> all = new ArrayList<>(k.cgroups());
    for (CgroupSpec c : extra) {
      if (k.cgroups().stream().anyMatch(g -> g.name().equals(c.name()))) {
        throw where.error(
            "taskgroup /" + c.name() + " is also a cgroup of kernel.cgroups; rename one of them");
      }
      all.add(c);
    }
    return new KernelSpec(
        k.preempt(),
        k.hz(),
        k.features(),
        k.params(),
        k.latencyLimitNs(),
        k.rt(),
        all,
        k.autogroup());
  }

  /** Every {@code cgroup:} step names a cgroup of {@code kernel.cgroups} (or "/", the root). */
  private static void checkCgroupSteps(WorkloadSpec workload, KernelSpec kernel, Val where)
      throws ScenarioException {
    List<String> known = kernel.cgroups().stream().map(CgroupSpec::name).toList();
    Set<StepSpec> loops = Collections.newSetFromMap(new IdentityHashMap<>());
    for (TaskSpec t : workload.tasks()) {
      for (String g : cgroupSteps(t.program(), loops)) {
        if (!g.isEmpty() && !known.contains(g)) {
          throw where.error(
              "task "
                  + t.name()
                  + ": cgroup: "
                  + g
                  + " is not a cgroup of kernel.cgroups; expected \"/\""
                  + (known.isEmpty() ? "" : " or one of " + String.join(", ", known)));
        }
      }
    }
  }

  /**
   * The groups of the cgroup steps of {@code program}, but for those in the loops and picks of
   * {@code seen} (checked already: generated programs share their instances), whose loops and picks
   * it adds.
   */
  private static List<String> cgroupSteps(List<StepSpec> program, Set<StepSpec> seen) {
    List<String> out = new ArrayList<>();
    for (StepSpec s : program) {
      if (s instanceof StepSpec.Cgroup c) {
        out.add(c.group());
      } else if (s instanceof StepSpec.Loop l && seen.add(l)) {
        out.addAll(cgroupSteps(l.body(), seen));
      } else if (s instanceof StepSpec.Pick p && seen.add(p)) {
        p.choices().forEach(choice -> out.addAll(cgroupSteps(choice, seen)));
      }
    }
    return out;
  }

  static KernelSpec kernel(Val v) throws ScenarioException {
    if (v.node() == null || v.node().isNull()) {
      return new KernelSpec(DEFAULT_PREEMPT, DEFAULT_HZ, Map.of(), Map.of(), Long.MAX_VALUE);
    }
    Obj k = v.object(KERNEL);
    String preempt = k.name("preempt", DEFAULT_PREEMPT);
    int hz = DEFAULT_HZ;
    if (k.has("hz")) {
      hz = k.get("hz").integer(0, 100_000);
      if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
        throw k.get("hz").error("expected one of 100, 250, 300, 1000, got " + hz);
      }
    }
    Map<String, Boolean> features = new LinkedHashMap<>();
    if (k.has("features")) {
      Obj f = k.get("features").object();
      for (String n : f.names()) {
        known(f.get(n), "feature." + n, "feature");
        features.put(n, f.get(n).bool());
      }
    }
    Map<String, Long> params = new LinkedHashMap<>();
    if (k.has("params")) {
      Obj p = k.get("params").object();
      for (String n : p.names()) {
        Val pv = p.get(n);
        known(pv, n, "parameter");
        params.put(
            n, pv.node().isIntegralNumber() ? pv.integer(0, Long.MAX_VALUE) : pv.durationNs());
      }
    }
    long limit = Long.MAX_VALUE;
    if (k.has("latency_limit") && !"none".equals(k.get("latency_limit").node().asText())) {
      limit = k.get("latency_limit").durationNs();
    }
    return new KernelSpec(
        preempt,
        hz,
        features,
        params,
        limit,
        k.bool("rt", false),
        CgroupBinder.bind(k),
        k.bool("autogroup", false));
  }

  /** Refuses a key the parameter table does not have, naming the ones it does. */
  private static void known(Val v, String key, String what) throws ScenarioException {
    if (!ParamTable.isKnown(key)) {
      throw v.error(
          "unknown "
              + what
              + "; expected one of "
              + ParamTable.keys().stream()
                  .filter(x -> x.startsWith("feature.") == what.equals("feature"))
                  .map(x -> what.equals("feature") ? x.substring("feature.".length()) : x)
                  .collect(java.util.stream.Collectors.joining(", ")));
    }
  }

  static List<PluginRef> plugins(Val v) throws ScenarioException {
    List<PluginRef> out = new ArrayList<>();
    for (Val p : v.list()) {
      if (p.node().isTextual()) {
        out.add(new PluginRef(p.name(), Map.of()));
        continue;
      }
      Obj o = p.object("id", "options");
      Map<String, String> options = new LinkedHashMap<>();
      if (o.has("options")) {
        Obj opts = o.get("options").object();
        for (String n : opts.names()) {
          options.put(n, opts.get(n).text());
        }
      }
      out.add(new PluginRef(o.required("id").name(), options));
    }
    return out;
  }
}
