package dev.schedlab.traceimport.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.traceimport.history.TaskMeasures;
import dev.schedlab.traceimport.read.TraceReader;
import dev.schedlab.traceimport.workload.ImportOptions;
import dev.schedlab.traceimport.workload.ImportedTrace;
import dev.schedlab.traceimport.workload.TraceImport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * schedlab's own traces round-trip: a run's ftrace text, imported and replayed on the same machine,
 * gives every traced wakeup by a task as a wake step, every program run to its end, and every task
 * its traced runtime within 1 % on a typical seed. The replay starts each task with fresh
 * fair-class state and its choices diverge from the traced run's, so one seed's worst task can land
 * either side of 1 %: over seeds 1-5 the median of each replay's worst task is within 1 % and none
 * is beyond 2 %.
 */
class RoundTripTest {
  /** Four CPUs without SMT (a sibling's load would stretch the replayed work a second time). */
  private static final String MACHINE =
      "machine: {preset: small-x86, cores_per_socket: 4,"
          + " threads_per_core: 1, disabled_states: [C6]}\n";

  private static final String PIPE = "workload: {tools: [{perf: \"bench sched pipe -l 2000\"}]}\n";
  // The hackbench traffic of docs/trace-replay.md's table: no sender blocks on a full socket and
  // the socket paths keep their earlier estimates. With the defaults the importer's worst task
  // is further off (1.3 %; 3.5 % when senders block and are woken together): see that page.
  private static final String HACKBENCH =
      "workload: {tools: [{hackbench: {args: \"-g 2 -l 100\", params: {socket_sndbuf:"
          + " 1000000000, socket_write: 1500ns, socket_read: 1200ns}}}]}\n";
  private static final String MIX =
      String.join(
          "\n",
          "workload:",
          "  tasks:",
          "    - {name: hog, count: 3, program: [{user: 7ms}]}",
          "    - name: ticker",
          "      count: 2",
          "      nice: -5",
          "      program: [{sleep_until: {period: 4ms}}, {user: {uniform: [50us, 200us]}}, {kernel: 20us}]",
          "    - {name: producer, program: [{user: {exp: 300us}}, {wake: {waitq: q, sync: true}},"
              + " {sleep: 100us}]}",
          "    - {name: consumer, program: [{block: q}, {user: 80us}]}",
          "    - {name: rt, policy: fifo, rt_priority: 50, program: [{sleep: 1ms}, {user: 30us}]}",
          "");

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"pipe", "hackbench", "mix"})
  void aTraceWrittenBySchedlabReplaysWithinOnePercent(String name) throws Exception {
    List<Double> worst = new ArrayList<>();
    for (int seed = 1; seed <= 5; seed++) {
      worst.add(worstRuntimeErrorPct(name, seed));
    }
    List<Double> sorted = worst.stream().sorted().toList();
    assertThat(sorted.get(2))
        .as("median over seeds 1-5 of the worst task's error, %")
        .isLessThan(1.0);
    assertThat(sorted.get(4)).as("worst seed's worst task, %: " + worst).isLessThan(2.0);
  }

  /** One seed's round trip: checks the wake steps and programs, returns the worst runtime error. */
  private double worstRuntimeErrorPct(String name, int seed) throws Exception {
    String workload = name.equals("pipe") ? PIPE : name.equals("hackbench") ? HACKBENCH : MIX;
    // The wakeup scan's cost per CPU probed (cost.sis_per_cpu) depends on what each scan finds,
    // which a trace does not show: the round trip measures the importer's own error without it.
    String text =
        "name: "
            + name
            + "\nduration: 60ms\nseed: "
            + seed
            + "\n"
            + MACHINE
            + "kernel: {params: {cost.sis_per_cpu: 0}}\n"
            + workload;
    Scenario original = ScenarioLoader.parse(name, text, true, name, List.of());
    Path trace = dir.resolve(name + seed + ".trace");
    Path machine = dir.resolve("machine.yaml");
    Files.writeString(machine, MACHINE);
    ImportedTrace imported;
    ReplayRun replay;
    try (PluginHost host = PluginHost.builtinOnly()) {
      FtraceWriter w = FtraceWriter.open(trace, original.machine().nrCpus());
      Simulation.run(original.config(), host.extensionsFor(List.of()), w);
      w.close();
      imported =
          TraceImport.of(TraceReader.read(trace, null), new ImportOptions(name, machine, dir));
      replay = ReplayRun.of("model", imported.replayScenario(), host.extensionsFor(List.of()));
    }
    ReplayReport report = new ReplayReport(imported, List.of(replay));
    assertThat(imported.trace().warnings().lines()).isEmpty();
    assertThat(replay.finished()).isEqualTo(imported.replayed().size());
    long traced = 0;
    long steps = 0;
    double worst = 0;
    for (String task : imported.replayed().keySet()) {
      TaskMeasures t = report.traced(task);
      TaskMeasures r = report.replayed(0, task);
      worst = Math.max(worst, 100.0 * Math.abs(r.runtimeNs - t.runtimeNs) / t.runtimeNs);
      traced += t.wakeupsByTask;
      steps += replay.wakeSteps(task);
    }
    assertThat(steps).as("seed " + seed + ": wake steps run").isEqualTo(traced).isPositive();
    return worst;
  }
}
