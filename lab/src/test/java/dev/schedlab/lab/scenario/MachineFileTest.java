package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.IdleStateSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.NoiseSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Machine files: a scenario's machine, kernel and tools sections on their own. In a scenario
 * (machine: {file}) the scenario's fields go over the file's; --machine replaces the scenario's
 * machine and its kernel and tools fields win; --set comes last; a tool entry's params win over
 * all.
 */
class MachineFileTest {
  private static final String HOST =
      String.join(
          "\n",
          "machine:",
          "  sockets: 1",
          "  cores_per_socket: 2",
          "  threads_per_core: 1",
          "  idle_states:",
          "    - {name: POLL, exit_latency: 0, target_residency: 0, polling: true}",
          "    - {name: haltpoll_idle, exit_latency: 1us, target_residency: 1us}",
          "  idle_governor: haltpoll",
          "  virtualized: true",
          "  mitigations: [retpoline, rsb_fill]",
          "  noise: {bins: [{from: 30us, to: 60us, rate: 12.5}, {from: 1ms, to: 2ms, rate: 0.5}]}",
          "kernel:",
          "  hz: 250",
          "  preempt: none",
          "  params: {cost.ctx_switch: 900, haltpoll.guest_halt_poll_ns: 0}",
          "");

  @TempDir Path dir;

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void aScenarioTakesTheFilesFieldsAndGoesOverThem() throws Exception {
    write("host.yaml", HOST);
    Path sc =
        write(
            "s.yaml",
            String.join(
                "\n",
                "machine: {file: host.yaml, isolated_cpus: \"1\"}",
                "kernel: {hz: 1000, params: {cost.sched_base: 400}}",
                ""));
    Scenario s = ScenarioLoader.load(sc);
    assertThat(s.machine().nrCpus()).isEqualTo(2);
    assertThat(s.machine().idleStates()).isEqualTo(MachineSpec.CUSTOM_IDLE_TABLE);
    assertThat(s.machine().customIdleStates())
        .containsExactly(
            new IdleStateSpec("POLL", 0, 0, true, false),
            new IdleStateSpec("haltpoll_idle", 1_000, 1_000, false, false));
    assertThat(s.machine().isolatedCpus()).isEqualTo("1");
    assertThat(s.machine().mitigations()).containsExactly("retpoline", "rsb_fill");
    assertThat(s.machine().noise())
        .isEqualTo(
            new NoiseSpec(
                List.of(
                    new NoiseSpec.Bin(30_000, 60_000, 12.5),
                    new NoiseSpec.Bin(1_000_000, 2_000_000, 0.5))));
    assertThat(s.machine().noise().ratePerSecond()).isEqualTo(13.0);
    assertThat(s.kernel().hz()).isEqualTo(1000); // the scenario's own
    assertThat(s.kernel().preempt()).isEqualTo("none"); // the file's
    assertThat(s.kernel().params())
        .containsEntry("cost.ctx_switch", 900L)
        .containsEntry("cost.sched_base", 400L)
        .containsEntry("haltpoll.guest_halt_poll_ns", 0L);
  }

  @Test
  void theCommandLinesMachineFileWinsAndSetComesLast() throws Exception {
    Path host = write("host.yaml", HOST);
    Path sc =
        write(
            "s.yaml",
            String.join(
                "\n",
                "machine: {preset: epyc-2s}",
                "kernel: {hz: 1000, preempt: full, params: {cost.ctx_switch: 5, cost.sched_base: 400}}",
                ""));
    Scenario s = ScenarioLoader.load(sc, host, List.of("kernel.params.cost.ctx_switch=777"));
    assertThat(s.machine().nrCpus()).isEqualTo(2);
    assertThat(s.machine().idleGovernor()).isEqualTo("haltpoll");
    assertThat(s.kernel().hz()).isEqualTo(250);
    assertThat(s.kernel().preempt()).isEqualTo("none");
    assertThat(s.kernel().params())
        .containsEntry("cost.ctx_switch", 777L)
        .containsEntry("cost.sched_base", 400L);
  }

  @Test
  void errorsInAMachineFileNameItsFileLineAndField() throws Exception {
    Path host = write("bad.yaml", HOST.replace("  virtualized: true", "  virtualised: true"));
    Path sc = write("s.yaml", "duration: 1ms\n");
    assertThatThrownBy(() -> ScenarioLoader.load(sc, host, List.of()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("bad.yaml:9:3")
        .hasMessageContaining("machine.virtualised: unknown field");
  }

  @Test
  void aMissingOrNestedMachineFileIsAnError() throws Exception {
    Path sc = write("s.yaml", "machine: {file: nowhere.yaml}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(sc))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("s.yaml:1:")
        .hasMessageContaining("no such file");
    write("nested.yaml", "machine: {file: host.yaml}\n");
    Path sc2 = write("s2.yaml", "machine: {file: nested.yaml}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(sc2))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("cannot name another machine file");
    Path sc3 = write("s3.yaml", "machine: {preset: small-x86, file: x.yaml}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(sc3))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("give one of preset and file");
  }

  @Test
  void noiseAndMitigationsAreChecked() throws Exception {
    Path a = write("a.yaml", "machine: {mitigations: [pti, spectre]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(a))
        .hasMessageContaining("unknown mitigation spectre");
    Path b = write("b.yaml", "machine: {noise: {bins: [{from: 2ms, to: 1ms, rate: 5}]}}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(b)).hasMessageContaining("expected to > from");
  }

  /** A hackbench scenario on {@code host}, its entry with {@code params} (a YAML flow map). */
  private Scenario hackbench(Path host, String params) throws Exception {
    Path sc =
        write(
            "hb.yaml",
            "duration: 1ms\nworkload:\n  tools:\n    - hackbench: {args: \"-g 1 -l 10\", params: "
                + params
                + "}\n");
    return ScenarioLoader.load(sc, host, List.of());
  }

  @Test
  void aMachineFilesToolValuesActAsEveryEntrysParamsUnlessTheEntryGivesItsOwn() throws Exception {
    Path plain = write("plain.yaml", HOST);
    Path measured =
        write(
            "measured.yaml",
            HOST + "tools:\n  hackbench: {socket_write: 221ns, socket_read: 258}\n");
    Scenario fromFile = hackbench(measured, "{}");
    assertThat(fromFile.workload())
        .isEqualTo(hackbench(plain, "{socket_write: 221ns, socket_read: 258ns}").workload())
        .isNotEqualTo(hackbench(plain, "{}").workload());
    assertThat(hackbench(measured, "{socket_write: 500ns}").workload())
        .isEqualTo(hackbench(plain, "{socket_write: 500ns, socket_read: 258ns}").workload());
  }

  @Test
  void aMachineFilesUnknownToolOrParameterIsAnError() throws Exception {
    Path tool = write("t.yaml", HOST + "tools:\n  hackbenc: {socket_write: 221}\n");
    Path param = write("p.yaml", HOST + "tools:\n  hackbench: {socket_wrte: 221}\n");
    Path sc = write("s.yaml", "duration: 1ms\n");
    assertThatThrownBy(() -> ScenarioLoader.load(sc, tool, List.of()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("t.yaml")
        .hasMessageContaining("unknown tool hackbenc");
    assertThatThrownBy(() -> ScenarioLoader.load(sc, param, List.of()))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("p.yaml")
        .hasMessageContaining("tools.hackbench.socket_wrte")
        .hasMessageContaining("unknown parameter of hackbench");
  }
}
