package dev.schedlab.testkit;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.api.plugin.SchedlabPlugin;
import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.Extensions;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.workload.Reports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs plugins in the engine inside a test: the plugin classes of the test's class path (no zip),
 * the built-in classes, models and policies, and the same checks as {@code schedlab run} (API
 * range, descriptor, options, hook conflicts, guards).
 *
 * <pre>{@code
 * class MyPatchTest {
 *   @RegisterExtension
 *   static final PluginKit kit = PluginKit.of(MyPatchPlugin::new);
 *
 *   @Test
 *   void fewerIpis() throws Exception {
 *     Comparison c = kit.compare(TestScenario.yaml("..."), "my-patch:mode=fast");
 *     assertThat(c.patched().metric("ipi.sent.resched"))
 *         .isLessThan(c.baseline().metric("ipi.sent.resched"));
 *     assertThat(c.patched().hookCalls(HookPoint.H1_PICK_OVERRIDE)).isPositive();
 *   }
 * }
 * }</pre>
 *
 * <p>Registered as a JUnit 5 extension, the kit keeps the runs of each test and, when the test
 * fails, writes their JSON results (and traces) to {@code target/schedlab-testkit/CLASS/METHOD/}
 * and names the folder in the test report. Runs are deterministic: the same scenario, seed and
 * plugins give the same {@link Run#digest()}.
 */
public final class PluginKit implements BeforeEachCallback, AfterEachCallback {
  private static final int KEPT_RUNS = 16;

  private final List<Supplier<? extends SchedlabPlugin>> plugins;
  private final boolean tracing;
  private final List<Run> runs = new ArrayList<>();

  private PluginKit(List<Supplier<? extends SchedlabPlugin>> plugins, boolean tracing) {
    this.plugins = List.copyOf(plugins);
    this.tracing = tracing;
  }

  /** A kit for these plugins; each supplier returns a new instance (a constructor reference). */
  @SafeVarargs
  @SuppressWarnings("varargs") // List.of copies the array; nothing is written into it
  public static PluginKit of(Supplier<? extends SchedlabPlugin>... plugins) {
    return new PluginKit(List.of(plugins), false);
  }

  /** The same kit, also recording each run's ftrace text ({@link Run#trace()}). */
  public PluginKit tracing() {
    return new PluginKit(plugins, true);
  }

  /**
   * Runs {@code scenario} with the plugins of its own {@code plugins:} list and {@code enable},
   * each an option line {@code ID[:key=value;key=value]} as for {@code schedlab run --plugin}. With
   * neither, it is a baseline run.
   *
   * @throws PluginException an unknown plugin or option, a conflict, an API range that excludes the
   *     host: as {@code schedlab run} reports it
   * @throws SimulationException when a plugin throws during the run or an invariant breaks
   */
  public Run run(TestScenario scenario, String... enable)
      throws PluginException, SimulationException {
    return run(scenario, null, enable);
  }

  /** As {@link #run(TestScenario, String...)}, sending the trace events to {@code sink}. */
  public Run run(TestScenario scenario, @Nullable TraceSink sink, String... enable)
      throws PluginException, SimulationException {
    Scenario s = scenario.load();
    return execute(s, merge(s.plugins(), enable), sink);
  }

  /**
   * The baseline (no plugins at all) and {@code scenario} with exactly {@code enable} (default:
   * every plugin of the kit, without options), in one call.
   */
  public Comparison compare(TestScenario scenario, String... enable)
      throws PluginException, SimulationException {
    Scenario s = scenario.load();
    List<PluginRef> refs = merge(List.of(), enable.length > 0 ? enable : allPluginIds());
    return new Comparison(execute(s, List.of(), null), execute(s, refs, null));
  }

  @SuppressWarnings("EnumOrdinal") // hook calls counted in an array slot per HookPoint
  private Run execute(Scenario s, List<PluginRef> refs, @Nullable TraceSink sink)
      throws PluginException, SimulationException {
    long[] calls = new long[HookPoint.values().length];
    @SuppressWarnings("unchecked")
    Supplier<SchedlabPlugin>[] counted =
        plugins.stream()
            .map(p -> (Supplier<SchedlabPlugin>) () -> new CountingPlugin(p.get(), calls))
            .toArray(Supplier[]::new);
    String label =
        refs.isEmpty()
            ? "baseline"
            : String.join(" + ", refs.stream().map(PluginKit::line).toList());
    Scenario withPlugins = s.withPlugins(refs);
    RunResult result;
    List<String> trace = List.of();
    try (PluginHost host = PluginHost.inProcess(counted)) {
      Extensions extensions = host.extensionsFor(refs);
      if (sink == null && tracing) {
        Path dir = tempDir();
        try {
          Path file = dir.resolve("run.trace");
          result = traced(withPlugins, extensions, file);
          trace = Files.readAllLines(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          deleteQuietly(dir);
        }
      } else {
        result =
            Simulation.run(
                withPlugins.config(), extensions, sink == null ? TraceSink.NONE : sink, FAIL);
      }
    }
    Map<HookPoint, Long> byPoint = new EnumMap<>(HookPoint.class);
    for (HookPoint p : HookPoint.values()) {
      if (calls[p.ordinal()] > 0) {
        byPoint.put(p, calls[p.ordinal()]);
      }
    }
    Run run =
        new Run(
            label,
            result,
            Reports.json(withPlugins.workload().tools(), result),
            Reports.text(withPlugins.workload().tools(), result),
            byPoint,
            trace);
    keep(run);
    return run;
  }

  /** A plugin's fault fails its test (the CLI would eject it and go on: docs/plugin-safety.md). */
  private static final RunOptions FAIL =
      new RunOptions(dev.schedlab.engine.plugin.PluginSupervisor.OnError.FAIL, false, null);

  private String[] allPluginIds() {
    return plugins.stream().map(p -> p.get().descriptor().id()).toArray(String[]::new);
  }

  private static RunResult traced(Scenario s, Extensions ext, Path file)
      throws IOException, SimulationException {
    FtraceWriter w = FtraceWriter.open(file, s.machine().nrCpus());
    try {
      RunResult r = Simulation.run(s.config(), ext, w, FAIL);
      w.close();
      return r;
    } catch (SimulationException | RuntimeException e) {
      w.abort();
      throw e;
    }
  }

  private static List<PluginRef> merge(List<PluginRef> scenario, String... enable) {
    Map<String, Map<String, String>> byId = new LinkedHashMap<>();
    for (PluginRef p : scenario) {
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    for (String line : enable) {
      PluginRef p = PluginRef.parse(line);
      byId.computeIfAbsent(p.id(), k -> new LinkedHashMap<>()).putAll(p.options());
    }
    List<PluginRef> out = new ArrayList<>();
    byId.forEach((id, opts) -> out.add(new PluginRef(id, opts)));
    return out;
  }

  private static String line(PluginRef p) {
    StringBuilder sb = new StringBuilder(p.id());
    String sep = ":";
    for (Map.Entry<String, String> e : p.options().entrySet()) {
      sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = ";";
    }
    return sb.toString();
  }

  private synchronized void keep(Run run) {
    if (runs.size() == KEPT_RUNS) {
      runs.remove(0);
    }
    runs.add(run);
  }

  @Override
  public synchronized void beforeEach(ExtensionContext context) {
    runs.clear();
  }

  /** When the test failed: its runs' results (and traces) under target/schedlab-testkit. */
  @Override
  public synchronized void afterEach(ExtensionContext context) throws IOException {
    if (context.getExecutionException().isEmpty() || runs.isEmpty()) {
      return;
    }
    Path dir =
        Path.of(
            "target",
            "schedlab-testkit",
            context.getRequiredTestClass().getName(),
            context.getRequiredTestMethod().getName());
    Files.createDirectories(dir);
    for (int i = 0; i < runs.size(); i++) {
      Run r = runs.get(i);
      String name = i + "-" + r.label().replaceAll("[^A-Za-z0-9.=+-]+", "_");
      Files.writeString(dir.resolve(name + ".json"), ResultWriter.toJson(r.result(), Map.of()));
      if (!r.trace().isEmpty()) {
        Files.write(dir.resolve(name + ".trace"), r.trace());
      }
    }
    context.publishReportEntry(
        "schedlab-testkit", "runs of the failed test: " + dir.toAbsolutePath());
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("schedlab-testkit-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory; nothing depends on it
    }
  }
}
