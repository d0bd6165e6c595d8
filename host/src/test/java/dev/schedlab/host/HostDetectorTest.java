package dev.schedlab.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.IdleStateSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Detection on fixture trees of four machines, and the machine file each gives, loaded back as a
 * scenario's machine.
 */
class HostDetectorTest {
  @TempDir Path root;
  @TempDir Path out;

  /** The machine file of the fixture, loaded under a one-line scenario. */
  private Scenario loaded(HostDescription h) throws Exception {
    Path file = out.resolve("host.yaml");
    Files.writeString(file, MachineFileWriter.write(h, "test"));
    Path sc = out.resolve("s.yaml");
    Files.writeString(sc, "duration: 1ms\n");
    return ScenarioLoader.load(sc, file, List.of());
  }

  @Test
  void aKvmGuestWithoutACpuidleDriverHaltsAndStopsTheTick() throws Exception {
    new FixtureHost(root)
        .cpus(1, 4, 1, 4)
        .cpuinfo("AMD EPYC", "fpu pae hypervisor lahf_lm")
        .file(
            "/sys/devices/system/clocksource/clocksource0/available_clocksource",
            "kvm-clock tsc acpi_pm")
        .config("CONFIG_HZ_1000=y", "CONFIG_HZ=1000", "CONFIG_PREEMPT_VOLUNTARY=y")
        .file("/proc/sys/kernel/osrelease", "6.1.0-guest")
        .file("/proc/cmdline", "console=ttyS0 quiet");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.nrCpus()).isEqualTo(4);
    assertThat(h.idleStates().value()).isEmpty();
    assertThat(h.idleStates().source()).contains("no cpuidle driver");
    assertThat(h.virtualized().value()).isTrue();
    assertThat(h.notes()).anyMatch(n -> n.contains("KVM"));
    assertThat(h.hz().value()).isEqualTo(1000);
    assertThat(h.preempt().value()).isEqualTo("voluntary");
    Scenario s = loaded(h);
    assertThat(s.machine().idleStates()).isEqualTo("hlt-only");
    assertThat(s.machine().virtualized()).isTrue();
    assertThat(s.kernel().hz()).isEqualTo(1000);
  }

  @Test
  void anIntelIdleServerWithSmtAndTwoPackages() throws Exception {
    new FixtureHost(root)
        .cpus(2, 4, 2, 4)
        .file("/sys/devices/system/node/node0/cpulist", "0-3,8-11")
        .file("/sys/devices/system/node/node1/cpulist", "4-7,12-15")
        .file("/sys/devices/system/cpu/cpuidle/current_driver", "intel_idle")
        .file("/sys/devices/system/cpu/cpuidle/current_governor", "menu")
        .state(0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0, false)
        .state(1, "C1", "MWAIT 0x00", 2, 2, false)
        .state(2, "C1E", "MWAIT 0x01", 10, 20, false)
        .state(3, "C6", "MWAIT 0x20", 133, 600, true)
        .cpuinfo("Intel(R) Xeon(R) Gold 6148", "fpu pcid pti")
        .file("/sys/devices/system/cpu/vulnerabilities/meltdown", "Mitigation: PTI")
        .file(
            "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
            "Mitigation: Retpolines; IBPB: conditional; IBRS_FW; RSB filling")
        .file(
            "/sys/devices/system/cpu/vulnerabilities/mds",
            "Mitigation: Clear CPU buffers; SMT vulnerable")
        .config("CONFIG_HZ=250", "CONFIG_PREEMPT_DYNAMIC=y", "CONFIG_PREEMPT_VOLUNTARY=y")
        .file("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy")
        .file("/proc/self/timerslack_ns", "50000");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.sockets().value()).isEqualTo(2);
    assertThat(h.coresPerSocket().value()).isEqualTo(4);
    assertThat(h.threadsPerCore().value()).isEqualTo(2);
    assertThat(h.coresPerLlc().value()).isZero(); // the L3 spans the package
    assertThat(h.numaNodesPerSocket().value()).isEqualTo(1);
    assertThat(h.idleStates().value())
        .containsExactly(
            new IdleStateSpec("POLL", 0, 0, true, false),
            new IdleStateSpec("C1", 2_000, 2_000, true, false),
            new IdleStateSpec("C1E", 10_000, 20_000, true, false),
            new IdleStateSpec("C6", 133_000, 600_000, true, false));
    assertThat(h.disabledStates().value()).containsExactly("C6");
    assertThat(h.virtualized().value()).isFalse();
    assertThat(h.mitigations().value())
        .containsExactly("pti", "pcid", "retpoline", "rsb_fill", "verw");
    assertThat(h.preempt().value()).isEqualTo("full"); // debugfs names the mode in effect
    MachineSpec m = loaded(h).machine();
    assertThat(m.nrCpus()).isEqualTo(16);
    assertThat(m.disabledStates()).containsExactly("C6");
    assertThat(m.mitigations()).containsExactly("pti", "pcid", "retpoline", "rsb_fill", "verw");
  }

  @Test
  void anAcpiIdleAmdMachineWithCcxCaches() throws Exception {
    new FixtureHost(root)
        .cpus(1, 16, 2, 4)
        .file("/sys/devices/system/cpu/cpuidle/current_driver", "acpi_idle")
        .file("/sys/devices/system/cpu/cpuidle/current_governor_ro", "teo")
        .state(0, "POLL", "CPUIDLE CORE POLL IDLE", 0, 0, false)
        .state(1, "C1", "ACPI FFH MWAIT 0x0", 1, 2, false)
        .state(2, "C2", "ACPI IOPORT 0x814", 400, 800, false)
        .cpuinfo("AMD EPYC 7713", "fpu")
        .file(
            "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
            "Mitigation: Retpolines; IBPB: always-on; STIBP: always-on; RSB filling")
        .file(
            "/sys/devices/system/cpu/vulnerabilities/spec_rstack_overflow", "Mitigation: Safe RET");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.coresPerLlc().value()).isEqualTo(4);
    assertThat(h.idleStates().value())
        .extracting(IdleStateSpec::polling)
        .containsExactly(true, true, false); // MWAIT polls, the I/O port state does not
    assertThat(h.governor().value()).isEqualTo("menu");
    assertThat(h.governor().source()).contains("teo is not modelled");
    assertThat(h.mitigations().value())
        .containsExactly("retpoline", "rsb_fill", "ibpb", "return_thunk");
    assertThat(h.hz().source()).startsWith("default:");
    MachineSpec m = loaded(h).machine();
    assertThat(m.coresPerLlc()).isEqualTo(4);
    assertThat(m.customIdleStates()).hasSize(3);
  }

  @Test
  void isolatedCpusComeFromTheCommandLine() throws Exception {
    new FixtureHost(root)
        .cpus(1, 4, 1, 4)
        .file("/proc/cmdline", "quiet isolcpus=domain,managed_irq,2-3 nohz_full=2-3 rcu_nocbs=2-3");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.isolatedCpus().value()).isEqualTo("2-3");
    assertThat(h.isolatedCpus().source()).contains("rcu_nocbs=2-3");
    assertThat(loaded(h).machine().isolatedCpus()).isEqualTo("2-3");
  }

  @Test
  void theKernelReleaseSetsTheFairClassVersionFeature() throws Exception {
    new FixtureHost(root).cpus(1, 2, 1, 2).file("/proc/sys/kernel/osrelease", "6.18.44-fc-v669");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.params().get("feature.PROTECT_QUANTUM").value()).isEqualTo(1L);
    assertThat(loaded(h).kernel().params()).containsEntry("feature.PROTECT_QUANTUM", 1L);
    assertThat(KernelProbe.versionParams("6.16.9").get("feature.PROTECT_QUANTUM").value())
        .isEqualTo(0L);
    assertThat(KernelProbe.versionParams("7.0.0").get("feature.PROTECT_QUANTUM").value())
        .isEqualTo(1L);
    assertThat(KernelProbe.versionParams("6.16.9").get("feature.YIELD_FORFEIT").value())
        .isEqualTo(0L);
    assertThat(loaded(h).kernel().params()).containsEntry("feature.YIELD_FORFEIT", 1L);
    assertThat(KernelProbe.versionParams("unknown")).isEmpty();
    // the NEXT_BUDDY rework's new-task rule: v6.19
    assertThat(loaded(h).kernel().params()).containsEntry("feature.FORK_NO_PREEMPT", 0L);
    assertThat(KernelProbe.versionParams("6.19.0").get("feature.FORK_NO_PREEMPT").value())
        .isEqualTo(1L);
  }

  @Test
  void theSliceThisProcessGetsSetsTheBaseSlice() throws Exception {
    new FixtureHost(root)
        .cpus(1, 2, 1, 2)
        .file(
            "/proc/self/sched",
            "java (4602, #threads: 1)\nse.vruntime : 935384.085927\nse.slice : 1400000\n");
    HostDescription h = HostDetector.describe(root);
    // two CPUs: the slice is the base times 1 + ilog2(2)
    assertThat(h.params().get("sched.base_slice").value()).isEqualTo(700_000L);
    assertThat(loaded(h).kernel().params()).containsEntry("sched.base_slice", 700_000L);

    new FixtureHost(root).cpus(1, 16, 1, 16).file("/proc/self/sched", "se.slice : 3000000\n");
    assertThat(HostDetector.describe(root).params().get("sched.base_slice").value())
        .as("16 CPUs: the factor stops at 8 CPUs, 1 + 3")
        .isEqualTo(750_000L);

    new FixtureHost(root).file("/proc/self/sched", "se.vruntime : 1.0\n"); // before v6.15
    assertThat(HostDetector.describe(root).params()).doesNotContainKey("sched.base_slice");
  }

  @Test
  void theOutOfTreeVcpuPackingParameterSetsThePackingThreshold() throws Exception {
    new FixtureHost(root)
        .cpus(1, 2, 1, 2)
        .file("/proc/cmdline", "console=ttyS0 nested_pvm=1 sched_vcpu_pack=15 rdinit=/init");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.params().get("sched.vcpu_pack_util").value())
        .isEqualTo(KernelProbe.VCPU_PACK_UTIL_MEASURED);
    assertThat(h.params().get("sched.vcpu_pack_util").source()).contains("sched_vcpu_pack=15");
    assertThat(h.params().get("sched.vcpu_pack_fork_util").source()).contains("Fork packing");
    assertThat(loaded(h).kernel().params())
        .containsEntry("sched.vcpu_pack_util", KernelProbe.VCPU_PACK_UTIL_MEASURED)
        .containsEntry("sched.vcpu_pack_fork_util", KernelProbe.VCPU_PACK_FORK_UTIL_MEASURED);

    new FixtureHost(root).file("/proc/cmdline", "console=ttyS0 sched_vcpu_pack=0");
    assertThat(HostDetector.describe(root).params())
        .doesNotContainKeys("sched.vcpu_pack_util", "sched.vcpu_pack_fork_util");
    new FixtureHost(root).file("/proc/cmdline", "console=ttyS0 quiet");
    assertThat(HostDetector.describe(root).params())
        .doesNotContainKeys("sched.vcpu_pack_util", "sched.vcpu_pack_fork_util");
  }

  @Test
  void theOutOfTreeBuildWakesDelayedTasksThroughTheRegularPath() throws Exception {
    new FixtureHost(root)
        .cpus(1, 2, 1, 2)
        .file("/proc/cmdline", "console=ttyS0 nested_pvm=1 sched_vcpu_pack=15 rdinit=/init");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.params().get("feature.TTWU_DEQUEUE").value()).isEqualTo(1L);
    assertThat(h.params().get("feature.TTWU_DEQUEUE").source()).contains("Delayed wakees");
    assertThat(loaded(h).kernel().params())
        .containsEntry("feature.TTWU_DEQUEUE", 1L)
        .containsEntry("feature.TTWU_DEQUEUE_KEEP_LAG", 1L);

    new FixtureHost(root).file("/proc/cmdline", "console=ttyS0 sched_vcpu_pack=0");
    assertThat(HostDetector.describe(root).params().get("feature.TTWU_DEQUEUE").value())
        .isEqualTo(1L); // the same build with its packing off
    new FixtureHost(root).file("/proc/cmdline", "console=ttyS0 quiet");
    assertThat(HostDetector.describe(root).params())
        .doesNotContainKeys("feature.TTWU_DEQUEUE", "feature.TTWU_DEQUEUE_KEEP_LAG");
  }

  @Test
  void theOutOfTreeBuildLetsNoNewTaskPreemptItsParent() throws Exception {
    new FixtureHost(root)
        .cpus(1, 2, 1, 2)
        .file("/proc/sys/kernel/osrelease", "6.18.44-fc-v1147")
        .file("/proc/cmdline", "console=ttyS0 nested_pvm=1 sched_vcpu_pack=15 rdinit=/init");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.params().get("feature.FORK_NO_PREEMPT").value()).isEqualTo(1L);
    assertThat(h.params().get("feature.FORK_NO_PREEMPT").source()).contains("New tasks");
    assertThat(loaded(h).kernel().params()).containsEntry("feature.FORK_NO_PREEMPT", 1L);

    new FixtureHost(root).file("/proc/cmdline", "console=ttyS0 quiet");
    assertThat(HostDetector.describe(root).params().get("feature.FORK_NO_PREEMPT").value())
        .as("a 6.18 without the build's marker: the release decides")
        .isEqualTo(0L);
  }

  @Test
  void thePrivateCacheIsTheLargestCacheNoOtherCoreShares() throws Exception {
    String cache = "/sys/devices/system/cpu/cpu0/cache/";
    new FixtureHost(root)
        .cpus(1, 2, 1, 2) // the L3 (index3) is shared by both cores
        .file(cache + "index0/size", "48K")
        .file(cache + "index2/level", "2")
        .file(cache + "index2/type", "Unified")
        .file(cache + "index2/shared_cpu_list", "0")
        .file(cache + "index2/size", "2048K")
        .file(cache + "index2/coherency_line_size", "64")
        .file(cache + "index3/size", "491520K");
    HostDescription h = HostDetector.describe(root);
    assertThat(h.params().get("cache.private_lines").value()).isEqualTo(32768L);
    assertThat(h.params().get("cache.private_lines").source()).contains("index2/size: 2048K");
    assertThat(loaded(h).kernel().params()).containsEntry("cache.private_lines", 32768L);
  }

  @Test
  void anEmptyTreeStillGivesALoadableMachineFile() throws Exception {
    HostDescription h = HostDetector.describe(root); // nothing readable: lockdown, no /sys
    assertThat(h.nrCpus()).isPositive();
    assertThat(h.hz().source()).startsWith("default:");
    assertThat(h.timerSlackNs().value()).isEqualTo(50_000L);
    String text = MachineFileWriter.write(h, "test");
    assertThat(text.lines()).allMatch(l -> l.length() <= 100);
    assertThat(loaded(h).machine().nrCpus()).isEqualTo(h.nrCpus());
  }

  @Test
  void measuredToolPathsAreWrittenAsTheToolsParametersAndLoadAsThem() throws Exception {
    HostDescription h = HostDetector.describe(root);
    Sourced<Long> write = Sourced.of(221L, "calibrated: a measured socket write()");
    Path file = out.resolve("measured.yaml");
    Files.writeString(
        file,
        MachineFileWriter.write(
            h, Map.of(), Map.of("hackbench", Map.of("socket_write", write)), null, "test"));
    assertThat(Files.readString(file))
        .contains("tools:\n  hackbench:\n    # calibrated: a measured socket write()\n");
    Path sc = out.resolve("hb.yaml");
    Files.writeString(sc, "duration: 1ms\nworkload: {tools: [{hackbench: \"-g 1 -l 5\"}]}\n");
    Path own = out.resolve("own.yaml");
    Files.writeString(
        own,
        "duration: 1ms\nworkload: {tools: [{hackbench: {args: \"-g 1 -l 5\","
            + " params: {socket_write: 221ns}}}]}\n");
    Path plain = out.resolve("plain.yaml");
    Files.writeString(plain, MachineFileWriter.write(h, "test"));
    assertThat(ScenarioLoader.load(sc, file, List.of()).workload())
        .isEqualTo(ScenarioLoader.load(own, plain, List.of()).workload())
        .isNotEqualTo(ScenarioLoader.load(sc, plain, List.of()).workload());
  }
}
