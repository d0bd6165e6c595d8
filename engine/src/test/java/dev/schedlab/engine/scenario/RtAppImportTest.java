package dev.schedlab.engine.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rt-app JSON in the style of rt-app's doc/examples/template.json imports and runs. */
class RtAppImportTest {
  static final String TEMPLATE = String.join("\n",
      "/* template.json style */",
      "{",
      "  \"tasks\" : {",
      "    \"thread0\" : {",
      "      \"instance\" : 2,",
      "      \"loop\" : -1,",
      "      \"run\" : 20000, // 20 ms",
      "      \"sleep\" : 80000",
      "    },",
      "    \"rt\" : { \"policy\" : \"SCHED_FIFO\", \"priority\" : 20, \"cpus\" : [0],",
      "      \"run\" : 1000, \"timer\" : { \"ref\" : \"unique\", \"period\" : 10000 } },",
      "    \"dl\" : { \"policy\" : \"SCHED_DEADLINE\", \"dl-runtime\" : 2000, \"dl-period\" : 10000,",
      "      \"loop\" : 5, \"phases\" : { \"p1\" : { \"loop\" : 2, \"run\" : 500, \"sleep\" : 1000 } } },",
      "    \"locker\" : { \"lock\" : \"m\", \"run\" : 100, \"unlock\" : \"m\", \"signal\" : \"q\", \"sleep\" : 500 },",
      "    \"waiter\" : { \"lock\" : \"m\", \"wait\" : { \"ref\" : \"q\", \"mutex\" : \"m\" }, \"unlock\" : \"m\" },",
      "    \"sync\" : { \"instance\" : 2, \"run\" : 300, \"barrier\" : \"b\" }",
      "  },",
      "  \"global\" : { \"duration\" : 1, \"default_policy\" : \"SCHED_OTHER\", \"calibration\" : \"CPU0\",",
      "    \"logdir\" : \"./\", \"log_basename\" : \"rt-app\", \"lock_pages\" : false, \"ftrace\" : false }",
      "}", "");

  @TempDir Path dir;

  @Test
  void templateImportsAndRuns() throws Exception {
    Path f = dir.resolve("template.json");
    Files.writeString(f, TEMPLATE);
    Scenario s = ScenarioLoader.load(f, List.of("machine.preset=small-x86", "duration=100ms"));
    List<TaskSpec> t = s.workload().tasks();
    assertThat(t).extracting(TaskSpec::name).contains("rt-app-init", "thread0", "rt", "dl",
        "locker", "waiter", "sync/0", "sync/1");
    TaskSpec thread0 = t.stream().filter(x -> x.name().equals("thread0")).findFirst().orElseThrow();
    assertThat(thread0.count()).isEqualTo(2);
    TaskSpec rt = t.stream().filter(x -> x.name().equals("rt")).findFirst().orElseThrow();
    assertThat(rt.policy()).isEqualTo("fifo");
    assertThat(rt.rtPriority()).isEqualTo(20);
    assertThat(rt.cpus()).isEqualTo("0");
    assertThat(rt.program()).anySatisfy(st -> assertThat(st).isInstanceOf(StepSpec.SleepUntil.class));
    TaskSpec dl = t.stream().filter(x -> x.name().equals("dl")).findFirst().orElseThrow();
    assertThat(dl.dlRuntimeNs()).isEqualTo(2_000_000);
    assertThat(dl.dlDeadlineNs()).isEqualTo(10_000_000);
    assertThat(dl.program().get(dl.program().size() - 1)).isInstanceOf(StepSpec.Exit.class);
    try (PluginHost host = PluginHost.builtinOnly()) {
      RunResult r = Simulation.run(s, host.extensionsFor(List.of()), TraceSink.NONE);
      assertThat(r.simNs()).isEqualTo(100_000_000L);
      assertThat(r.events()).isPositive();
    }
  }

  @Test
  void unsupportedKeyIsRejectedWithItsPath() throws Exception {
    Path f = dir.resolve("bad.json");
    Files.writeString(f, "{ \"tasks\" : { \"t\" : { \"run\" : 10, \"fork\" : \"x\" } } }");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class).hasMessageContaining("tasks.t.fork")
        .hasMessageContaining("unsupported rt-app key");
    Files.writeString(f, "{ \"tasks\" : { \"t\" : { \"run\" : 10 } }, \"global\" : { \"pi_enabled\" : true } }");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class).hasMessageContaining("global.pi_enabled");
  }

  @Test
  void scenarioCanImportAnRtAppFile() throws Exception {
    Files.writeString(dir.resolve("w.json"), TEMPLATE);
    Path sc = dir.resolve("s.yaml");
    Files.writeString(sc, "duration: 10ms\nworkload: {rtapp: w.json}\n");
    Scenario s = ScenarioLoader.load(sc);
    assertThat(s.durationNs()).isEqualTo(10_000_000L);
    assertThat(s.workload().tasks()).extracting(TaskSpec::name).contains("thread0", "sync/1");
  }
}
