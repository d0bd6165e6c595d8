package dev.schedlab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.RunOptions;
import dev.schedlab.engine.Simulation;
import dev.schedlab.engine.SimulationException;
import dev.schedlab.engine.config.PluginRef;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.engine.output.TraceSink;
import dev.schedlab.engine.plugin.PluginEjection;
import dev.schedlab.engine.plugin.PluginHost;
import dev.schedlab.engine.plugin.PluginSupervisor;
import dev.schedlab.engine.plugin.testplugins.FaultPlugin.Fault;
import dev.schedlab.lab.output.ResultWriter;
import dev.schedlab.lab.scenario.Scenario;
import dev.schedlab.lab.scenario.ScenarioLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every fault the engine catches at run time: the plugin is ejected with its id, the hook and the
 * simulated time, the run completes on mainline; under {@code fail} the run stops instead.
 */
class PluginFaultTest {
  static final long DURATION = 200_000_000L;
  static final long WATCHDOG = 50_000_000L;

  /** Four CPUs; fair tasks that wake each other across CPUs, sleep and spin; ext hogs on 0-1. */
  static Scenario scenario(Fault f) throws Exception {
    String yaml =
        String.join(
            "\n",
            "duration: 200ms",
            "machine: {sockets: 1, cores_per_socket: 4, threads_per_core: 1"
                + (f == Fault.THROW_IDLE_POLICY ? ", idle_governor: fault-governor}" : "}"),
            "kernel: {preempt: "
                + (f == Fault.THROW_MODEL ? "fault-model" : "voluntary")
                + ", params: {watchdog.timeout: 50ms}}",
            "workload:",
            "  tasks:",
            "    - {name: producer, cpus: '2', program: [{user: 200us}, {wake: {waitq: pipe}},"
                + " {sleep: 300us}]}",
            "    - {name: consumer, cpus: '3', program: [{block: pipe}, {user: 50us}]}",
            "    - {name: sleeper, program: [{sleep: 2ms}, {user: 20us}]}",
            "    - {name: caller, cpus: '2', program: [{user: 500us}, {call: {cpu: 3, cost: 1us}},"
                + " {sleep: 1ms}]}",
            "    - {name: ext, count: 3, policy: ext, cpus: '0-1', program: [{user: 1ms}, {mark:"
                + " ext_runs}, {sleep: 100us}]}",
            "");
    Scenario s = ScenarioLoader.parse("faults.yaml", yaml, true, "faults", List.of());
    return s.withPlugins(List.of(new PluginRef(f.id(), Map.of())));
  }

  static RunResult run(Fault f, RunOptions options) throws Exception {
    Scenario s = scenario(f);
    try (PluginHost host = PluginHost.inProcess(f.plugin())) {
      return Simulation.run(s.config(), host.extensionsFor(s.plugins()), TraceSink.NONE, options);
    }
  }

  static long metric(RunResult r, String name) {
    return ((Number) r.metrics().get(name)).longValue();
  }

  @ParameterizedTest
  @EnumSource(
      value = Fault.class,
      names = {"THROW_.*"},
      mode = EnumSource.Mode.MATCH_ANY)
  void aThrowEjectsThePluginAndTheRunGoesOnOnMainline(Fault f) throws Exception {
    RunResult r = run(f, RunOptions.DEFAULT);
    assertThat(r.ejections()).as(f.name()).hasSize(1);
    PluginEjection e = r.ejections().get(0);
    assertThat(e.plugin()).isEqualTo(f.id());
    assertThat(e.reason()).contains("injected fault");
    assertThat(e.hook()).isEqualTo(expectedHook(f));
    assertThat(e.simNs()).isBetween(0L, DURATION);
    assertThat(e.runqueues().split("\n")).hasSize(4).allMatch(l -> l.startsWith("cpu"));
    assertThat(r.simNs()).isEqualTo(DURATION);
    if (f.inClass()) {
      // The ext tasks went on in the fair class: each ran many times after the ejection.
      assertThat(metric(r, "mark.ext_runs")).isGreaterThan(3 * 20);
    }
  }

  static String expectedHook(Fault f) {
    return switch (f) {
      case THROW_H1 -> "H1 pickOverride";
      case THROW_H2 -> "H2 spinLimitNs";
      case THROW_H5 -> "H5 onTick";
      case THROW_H6 -> "H6 enterIdle";
      case THROW_H7 -> "H7 kickFlags";
      case THROW_H8 -> "H8 onNewidleFail";
      case THROW_H9 -> "H9 onDoIdleTop";
      case THROW_H11 -> "H11 onExitToUser";
      case THROW_H13 -> "H13 prepare";
      case THROW_H14 -> "H14 onRunnableWake";
      case THROW_H16 -> "H16 selectTaskRq";
      case THROW_H17 -> "H17 imbalance";
      case THROW_H18 -> "H18 utilEst";
      case THROW_MODEL -> "model fault-model.chooseBit";
      case THROW_IDLE_POLICY -> "idle policy fault-governor.select";
      case THROW_TIMER_CALLBACK -> "timer callback";
      default -> "class ext." + camel(f.name().substring("THROW_CLASS_".length()));
    };
  }

  private static String camel(String upper) {
    return switch (upper) {
      case "PICKNEXT" -> "pickNext";
      case "PUTPREV" -> "putPrev";
      case "SETNEXT" -> "setNext";
      case "SELECTCPU" -> "selectCpu";
      case "UPDATECURR" -> "updateCurr";
      case "WAKEUPPREEMPT" -> "wakeupPreempt";
      default -> upper.toLowerCase();
    };
  }

  @Test
  void aTaskStarvedByItsClassEjectsThePluginAtTheTimeoutAndTheRestRunsOnMainline()
      throws Exception {
    RunResult r = run(Fault.NEVER_PICKS, RunOptions.DEFAULT);
    assertThat(r.ejections()).hasSize(1);
    PluginEjection e = r.ejections().get(0);
    assertThat(e.plugin()).isEqualTo("fault-never-picks");
    assertThat(e.hook()).isEqualTo("watchdog: class ext");
    assertThat(e.reason()).contains("failed to run for 0.050 s");
    // The ext tasks became runnable at 0: the watchdog fires exactly at the timeout.
    assertThat(e.simNs()).isEqualTo(WATCHDOG);
    assertThat(e.runqueues()).contains("(ext) runnable waiting 0.050000 s");
    assertThat(r.simNs()).isEqualTo(DURATION);
    // Nothing ran before the ejection; afterwards the 3 ext tasks share 2 CPUs in fair for 150 ms.
    assertThat(metric(r, "mark.ext_runs")).isGreaterThan(150);
  }

  @Test
  void aClassPickingATaskOfAnotherCpuIsEjected() throws Exception {
    PluginEjection e = single(run(Fault.PICKS_OTHER_CPU, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("class ext.pickNext");
    assertThat(e.reason())
        .containsPattern("picked ext/\\d-\\d+, which is queued on cpu \\d on cpu \\d");
  }

  @Test
  void aClassIgnoringAffinityIsEjected() throws Exception {
    PluginEjection e = single(run(Fault.IGNORES_AFFINITY, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("class ext.selectCpu");
    assertThat(e.reason())
        .containsPattern("chose cpu [23] for ext/\\d-\\d+, outside its affinity mask \\{0, 1\\}");
  }

  @Test
  void aPlacementHookIgnoringAffinityIsEjected() throws Exception {
    PluginEjection e = single(run(Fault.H16_IGNORES_AFFINITY, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("H16 selectTaskRq");
    assertThat(e.reason()).contains("outside its affinity mask");
  }

  @Test
  void aLostTaskIsFoundByTheCheckAndOtherwiseByTheWatchdog() throws Exception {
    PluginEjection checked =
        single(run(Fault.LOSES_TASKS, new RunOptions(PluginSupervisor.OnError.EJECT, true, null)));
    assertThat(checked.hook()).isEqualTo("class ext.enqueue");
    assertThat(checked.reason()).contains("a task lost or duplicated");
    PluginEjection watched = single(run(Fault.LOSES_TASKS, RunOptions.DEFAULT));
    assertThat(watched.hook()).isEqualTo("watchdog: class ext");
    assertThat(watched.simNs()).isGreaterThan(checked.simNs());
  }

  @Test
  void timeGoingBackwardsIsAViolation() throws Exception {
    PluginEjection e = single(run(Fault.TIME_BACKWARDS, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("services.defer");
    assertThat(e.reason()).contains("simulated time going backwards: delay -5000 ns");
  }

  @Test
  void unboundedRecursionEjects() throws Exception {
    PluginEjection e = single(run(Fault.RECURSES, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("H5 onTick");
    assertThat(e.reason()).startsWith("java.lang.StackOverflowError");
  }

  @Test
  void readingEngineInternalsByReflectionIsRefusedAndEjects() throws Exception {
    PluginEjection e = single(run(Fault.READS_INTERNALS, RunOptions.DEFAULT));
    assertThat(e.hook()).isEqualTo("H5 onTick");
    assertThat(e.reason()).contains("IllegalAccessException");
  }

  @Test
  void underFailTheRunStopsNamingPluginHookAndTime() {
    assertThatThrownBy(
            () ->
                run(
                    Fault.THROW_CLASS_PICKNEXT,
                    new RunOptions(PluginSupervisor.OnError.FAIL, false, null)))
        .isInstanceOf(SimulationException.class)
        .hasMessageContaining("plugin fault-throw-class-picknext failed in hook class ext.pickNext")
        .hasMessageMatching("(?s).*at simulated time \\d+ ns.*");
    assertThatThrownBy(
            () ->
                run(Fault.NEVER_PICKS, new RunOptions(PluginSupervisor.OnError.FAIL, false, null)))
        .isInstanceOf(SimulationException.class)
        .hasMessageContaining("watchdog: class ext")
        .hasMessageContaining("at simulated time 50000000 ns");
  }

  @Test
  void theResultReportsEjectionsInTextJsonAndTrace() throws Exception {
    Scenario s = scenario(Fault.THROW_H5);
    List<String> dump = new ArrayList<>();
    TraceSink trace =
        new TraceSink() {
          @Override
          public boolean enabled() {
            return true;
          }

          @Override
          public void dump(long t, int cpu, String comm, int pid, String text) {
            dump.add(t + " " + text);
          }
        };
    RunResult r;
    try (PluginHost host = PluginHost.inProcess(Fault.THROW_H5.plugin())) {
      r = Simulation.run(s.config(), host.extensionsFor(s.plugins()), trace, RunOptions.DEFAULT);
    }
    PluginEjection e = single(r);
    assertThat(dump.get(0)).isEqualTo(e.simNs() + " " + e.summary());
    assertThat(dump).hasSize(1 + 4);
    assertThat(ResultWriter.toText(r))
        .contains(
            "ejected    plugin fault-throw-h5 ejected at"
                + " simulated time "
                + e.simNs()
                + " ns in H5 onTick: java.lang.IllegalStateException:"
                + " injected fault in H5 at dev.schedlab.engine.plugin.testplugins.FaultPlugin.boom(");
    assertThat(ResultWriter.toJson(r))
        .contains(
            "\"ejections\" : [",
            "\"plugin\" : \"fault-throw-h5\"",
            "\"hook\" : \"H5 onTick\"",
            "\"sim_ns\" : " + e.simNs(),
            "\"runqueues\" : [",
            "\"cpu0 curr=");
  }

  @Test
  void aPluginThatBehavesLeavesTheDigestAsWithoutTheWatchdog() throws Exception {
    // fault-loses-tasks only misbehaves from its third enqueue on; with no ext task the plugin's
    // class is never used and the run is the baseline run, watchdog events and all.
    Scenario s = scenario(Fault.LOSES_TASKS);
    Scenario noExt =
        ScenarioLoader.parse(
            "q.yaml",
            String.join(
                "\n",
                "duration: 50ms",
                "machine: {sockets: 1, cores_per_socket: 2, threads_per_core: 1}",
                "kernel: {params: {watchdog.timeout: 1ms}}",
                "workload: {tasks: [{name: a, program: [{user: 100us}, {sleep: 50us}]}]}",
                ""),
            true,
            "q",
            List.of());
    RunResult base;
    RunResult withPlugin;
    try (PluginHost host = PluginHost.inProcess(Fault.LOSES_TASKS.plugin())) {
      base = Simulation.run(noExt.config(), host.extensionsFor(List.of()), TraceSink.NONE);
      withPlugin =
          Simulation.run(
              noExt.withPlugins(s.plugins()).config(),
              host.extensionsFor(s.plugins()),
              TraceSink.NONE);
    }
    assertThat(withPlugin.ejections()).isEmpty();
    assertThat(withPlugin.digest()).isEqualTo(base.digest());
    assertThat(withPlugin.events()).isEqualTo(base.events());
  }

  private static PluginEjection single(RunResult r) {
    assertThat(r.ejections()).hasSize(1);
    assertThat(r.simNs()).isEqualTo(DURATION);
    return r.ejections().get(0);
  }
}
