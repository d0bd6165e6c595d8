package dev.schedlab.plugins.mmcid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.api.plugin.HookPoint;
import dev.schedlab.engine.params.Param;
import dev.schedlab.engine.plugin.PluginException;
import dev.schedlab.testkit.PluginKit;
import dev.schedlab.testkit.Run;
import dev.schedlab.testkit.TestScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Where and how long the mm_cid compaction runs, with and without the series. */
class MmCidOffloadPluginTest {
  /** 32 CPUs, CPU 0 housekeeping; a CPU hog on isolated CPU 5 whose mm is scanned every 100 ms. */
  private static final String HOG =
      String.join(
          "\n",
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

  @RegisterExtension static final PluginKit KIT = PluginKit.of(MmCidOffloadPlugin::new);

  /** A run of {@code yaml} with the plugins of the option lines {@code enable} (none: baseline). */
  private static Run run(String yaml, String... enable) throws Exception {
    return KIT.run(TestScenario.yaml(yaml), enable);
  }

  @Test
  void baselineRunsTheScanInTheCurrentTasksContextOnTheIsolatedCpuScanningAllCpus()
      throws Exception {
    Run base = run(HOG);
    long scans = base.metric("mm_cid.scans");
    assertThat(scans).isGreaterThanOrEqualTo(5);
    // Every queued work runs as task_work (the last one may still be pending when the run ends).
    long queued = base.metric("mm_cid.works_queued");
    assertThat(base.metric("task_work.runs")).isBetween(queued - 1, queued);
    assertThat(base.metric("task_work.runs")).isEqualTo(scans);
    // 2 x 32 possible CPUs x cost.mm_cid_per_cpu_check per check, every scan, all on the isolated
    // CPU.
    assertThat(base.metric("mm_cid.scan_ns")).isEqualTo(scans * 2 * 32 * PER_CPU);
    assertThat(base.metric("mm_cid.scan_ns_on_isolated_cpus"))
        .isEqualTo(base.metric("mm_cid.scan_ns"));
  }

  @Test
  void seriesRunsTheWorkAfterAGracePeriodOnAHousekeepingCpu() throws Exception {
    Run patched = run(HOG, "mm-cid-offload");
    assertThat(patched.metric("mm_cid.scans")).isPositive();
    assertThat(patched.metric("deferred.rcu_callbacks")).isEqualTo(patched.metric("mm_cid.scans"));
    assertThat(patched.metric("mm_cid.scan_ns_on_isolated_cpus")).isZero();
    assertThat(patched.metric("deferred.work_ns_on_housekeeping_cpus")).isPositive();
    assertThat(patched.metric("task_work.runs")).isZero();
    // The series replaces the tick stage (H5) and the exit-to-user path (H11).
    assertThat(patched.hookCalls(HookPoint.H5_TICK)).isPositive();
  }

  @Test
  void shortScanCostsInProportionToTheCidsInUse() throws Exception {
    Run full = run(HOG, "mm-cid-offload:short_scan=false;rcu=false");
    Run shortScan = run(HOG, "mm-cid-offload:short_scan=true;rcu=false");
    // Both tasks run on CPU 5 only: one cid each, 2 checks per scan instead of 64.
    assertThat(full.metric("mm_cid.scan_ns") / full.metric("mm_cid.scans"))
        .isEqualTo(2 * 32 * PER_CPU);
    assertThat(shortScan.metric("mm_cid.scan_ns") / shortScan.metric("mm_cid.scans"))
        .isEqualTo(2 * PER_CPU);
  }

  @Test
  void unknownOptionsAreRefused() {
    assertThatThrownBy(() -> run(HOG, "mm-cid-offload:vehicle=rcu"))
        .isInstanceOf(PluginException.class)
        .hasMessageContaining("vehicle");
  }
}
