package dev.schedlab.plugins.mmcid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.scenario.PluginRef;
import dev.schedlab.engine.scenario.Scenario;
import dev.schedlab.engine.scenario.ScenarioLoader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where and how long the mm_cid compaction runs, with and without the series. */
class MmCidOffloadPluginTest {
  /** 32 CPUs, CPU 0 housekeeping; a CPU hog on isolated CPU 5 whose mm is scanned every 100 ms. */
  private static final String HOG = String.join("\n",
      "duration: 1s",
      "machine: {sockets: 1, cores_per_socket: 32, threads_per_core: 1, idle_states: hlt-only,"
          + " isolated_cpus: \"1-31\"}",
      "kernel: {preempt: full}",
      "workload:",
      "  tasks:",
      "    - {name: hog, cpus: \"5\", program: [{user: 50ms}, {kernel: 5us}]}",
      "    - {name: ticker, cpus: \"5\", policy: fifo, rt_priority: 50,"
          + " program: [{sleep_until: {period: 1ms}}, {user: 300us}]}",
      "");

  /** The default cost.mm_cid_per_cpu_check (ns); the scenarios do not override it. */
  private static final long PER_CPU = Param.MM_CID_PER_CPU.defaultValue();

  private static RunResult run(String yaml, Map<String, String> options) throws Exception {
    Scenario s = ScenarioLoader.parse("t.yaml", yaml, true, "t", List.of());
    try (PluginHost host = PluginHost.inProcess(MmCidOffloadPlugin::new)) {
      List<PluginRef> refs = options == null ? List.of() : List.of(new PluginRef("mm-cid-offload", options));
      return Simulation.run(s.withPlugins(refs), host.extensionsFor(refs), TraceSink.NONE);
    }
  }

  private static long metric(RunResult r, String name) {
    return ((Number) r.metrics().get(name)).longValue();
  }

  @Test
  void baselineRunsTheScanInTheCurrentTasksContextOnTheIsolatedCpuScanningAllCpus() throws Exception {
    RunResult base = run(HOG, null);
    long scans = metric(base, "mm_cid.scans");
    assertThat(scans).isGreaterThanOrEqualTo(5);
    // Every queued work runs as task_work (the last one may still be pending when the run ends).
    long queued = metric(base, "mm_cid.works_queued");
    assertThat(metric(base, "task_work.runs")).isBetween(queued - 1, queued);
    assertThat(metric(base, "task_work.runs")).isEqualTo(scans);
    // 2 x 32 possible CPUs x cost.mm_cid_per_cpu_check per check, every scan, all on the isolated CPU.
    assertThat(metric(base, "mm_cid.scan_ns")).isEqualTo(scans * 2 * 32 * PER_CPU);
    assertThat(metric(base, "mm_cid.scan_ns_on_isolated_cpus")).isEqualTo(metric(base, "mm_cid.scan_ns"));
  }

  @Test
  void seriesRunsTheWorkAfterAGracePeriodOnAHousekeepingCpu() throws Exception {
    RunResult patched = run(HOG, Map.of());
    assertThat(metric(patched, "mm_cid.scans")).isPositive();
    assertThat(metric(patched, "deferred.rcu_callbacks")).isEqualTo(metric(patched, "mm_cid.scans"));
    assertThat(metric(patched, "mm_cid.scan_ns_on_isolated_cpus")).isZero();
    assertThat(metric(patched, "deferred.work_ns_on_housekeeping_cpus")).isPositive();
    assertThat(metric(patched, "task_work.runs")).isZero();
  }

  @Test
  void shortScanCostsInProportionToTheCidsInUse() throws Exception {
    RunResult full = run(HOG, Map.of("short_scan", "false", "rcu", "false"));
    RunResult shortScan = run(HOG, Map.of("short_scan", "true", "rcu", "false"));
    // Both tasks run on CPU 5 only: one cid each, 2 checks per scan instead of 64.
    assertThat(metric(full, "mm_cid.scan_ns") / metric(full, "mm_cid.scans")).isEqualTo(2 * 32 * PER_CPU);
    assertThat(metric(shortScan, "mm_cid.scan_ns") / metric(shortScan, "mm_cid.scans")).isEqualTo(2 * PER_CPU);
  }

  @Test
  void unknownOptionsAreRefused() {
    assertThatThrownBy(() -> run(HOG, Map.of("vehicle", "rcu")))
        .isInstanceOf(PluginException.class).hasMessageContaining("vehicle");
  }
}
