package dev.schedlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.lab.output.FtraceWriter;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import dev.schedlab.lab.workload.Reports;
import dev.schedlab.report.timeline.TeeSink;
import dev.schedlab.report.timeline.Timeline;
import java.nio.file.Path;
import java.util.List;

/**
 * A small real run for the tests: 2 CPUs, 30 ms, tasks that switch, sleep and wake each other, and
 * cyclictest with a histogram; its JSON, its trace file and the timeline fed during the run.
 *
 * @param json the run JSON text (as run --out writes it)
 * @param node the same, parsed
 * @param trace the ftrace text file written during the run
 * @param live the timeline fed by the run itself (finished)
 */
public record SmallRun(String json, JsonNode node, Path trace, Timeline live) {
  public static final String SCENARIO =
      String.join(
          "\n",
          "duration: 30ms",
          "machine: {preset: small-x86, sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
          "workload:",
          "  tasks:",
          "    - {name: ticker, count: 2, program: [{sleep_until: {period: 3ms, sample: tick}}, {user: 200us}]}",
          "    - {name: pair, program: [{user: 100us}, {wake: q}, {sleep: 2ms}]}",
          "    - {name: peer, program: [{block: q}, {user: 50us}]}",
          "  tools:",
          "    - cyclictest: \"-i 1000 -t 2 -h 200 -q\"",
          "");

  /** Runs the scenario, writing its trace into {@code dir}. */
  public static SmallRun in(Path dir) throws Exception {
    Scenario s = ScenarioLoader.parse("small.yaml", SCENARIO, true, "small", List.of());
    Path trace = dir.resolve("small.trace");
    FtraceWriter w = FtraceWriter.open(trace, s.machine().nrCpus());
    Timeline live = new Timeline(s.machine().nrCpus(), s.durationNs());
    RunResult r;
    try (PluginHost host = PluginHost.builtinOnly()) {
      r = Simulation.run(s.config(), host.extensionsFor(List.of()), new TeeSink(w, live));
    }
    w.close();
    String json = ResultWriter.toJson(r, Reports.json(s.workload().tools(), r));
    return new SmallRun(json, new ObjectMapper().readTree(json), trace, live.finish(r.simNs()));
  }
}
