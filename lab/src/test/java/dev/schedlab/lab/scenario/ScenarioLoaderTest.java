package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.KernelSpec;
import dev.schedlab.engine.config.MachineSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioLoaderTest {
  static final Path QUICKSTART = Path.of("..", "examples", "quickstart.yaml");

  @TempDir Path dir;

  static Scenario yaml(String text, String... sets) throws ScenarioException {
    return ScenarioLoader.parse("t.yaml", text, true, "t", List.of(sets));
  }

  @Test
  void loadsQuickstart() throws Exception {
    Scenario s = ScenarioLoader.load(QUICKSTART);
    assertThat(s.name()).isEqualTo("quickstart");
    assertThat(s.seed()).isEqualTo(1);
    assertThat(s.durationNs()).isEqualTo(1_000_000_000L);
    assertThat(s.machine().preset()).isEqualTo("small-x86");
    assertThat(s.machine().nrCpus()).isEqualTo(8);
    assertThat(s.machine().idleStates()).isEqualTo("skx");
    assertThat(s.kernel().preempt()).isEqualTo("voluntary");
    assertThat(s.kernel().hz()).isEqualTo(1000);
    assertThat(s.kernel().latencyLimitNs()).isEqualTo(Long.MAX_VALUE);
    assertThat(s.workload().tasks())
        .extracting(TaskSpec::name)
        .containsExactly("hog", "ticker", "producer", "consumer", "rt");
    TaskSpec hog = s.workload().tasks().get(0);
    assertThat(hog.count()).isEqualTo(2);
    assertThat(hog.program()).containsExactly(new StepSpec.User(Dist.fixed(10_000_000)));
    TaskSpec ticker = s.workload().tasks().get(1);
    assertThat(ticker.nice()).isEqualTo(-5);
    assertThat(ticker.program().get(0))
        .isEqualTo(new StepSpec.SleepUntil(4_000_000, "periodic_wakeup"));
    assertThat(ticker.program().get(1)).isEqualTo(new StepSpec.User(Dist.uniform(50_000, 200_000)));
    TaskSpec producer = s.workload().tasks().get(2);
    assertThat(producer.program())
        .containsExactly(
            new StepSpec.User(Dist.exp(300_000)),
            new StepSpec.Wake("pipe", true),
            new StepSpec.Sleep(Dist.fixed(100_000)));
    TaskSpec consumer = s.workload().tasks().get(3);
    assertThat(consumer.program().get(1))
        .isEqualTo(
            new StepSpec.Kernel(
                List.of(
                    new StepSpec.Segment(Dist.fixed(15_000), true, false, "COND_RESCHED"),
                    new StepSpec.Segment(Dist.fixed(5_000), false, false, "NONE"))));
    assertThat(consumer.program().get(3)).isEqualTo(new StepSpec.Mark("items_consumed"));
    TaskSpec rt = s.workload().tasks().get(4);
    assertThat(rt.policy()).isEqualTo("fifo");
    assertThat(rt.rtPriority()).isEqualTo(50);
    assertThat(rt.program().get(0)).isEqualTo(new StepSpec.SleepUntil(1_000_000, "rt_wakeup"));
    assertThat(s.plugins()).isEmpty();
  }

  @Test
  void jsonTwinEqualsYaml() throws Exception {
    String json =
        "{\n"
            + "  // same scenario as a JSON file\n"
            + "  \"name\": \"twin\", \"seed\": 3, \"duration\": \"2ms\",\n"
            + "  \"machine\": {\"preset\": \"kvm-4vcpu\"},\n"
            + "  \"kernel\": {\"hz\": 250, \"params\": {\"cost.sched_base\": \"400ns\", \"sched.nr_migrate\": 7}},\n"
            + "  \"workload\": {\"tasks\": [{\"name\": \"a\", \"cpus\": \"0-1\", \"program\": [\n"
            + "     {\"user\": \"1ms\"}, {\"call\": {\"cpu\": 3, \"cost\": \"2us\", \"wait\": true}},\n"
            + "     {\"loop\": {\"count\": 2, \"body\": [{\"sleep\": 1000}]}}, \"exit\"]}]},\n"
            + "  \"plugins\": [\"p-one\", {\"id\": \"p-two\", \"options\": {\"k\": 5}}]\n"
            + "}\n";
    String yaml =
        "name: twin\nseed: 3\nduration: 2ms\nmachine: {preset: kvm-4vcpu}\n"
            + "kernel: {hz: 250, params: {cost.sched_base: 400ns, sched.nr_migrate: 7}}\n"
            + "workload:\n  tasks:\n    - name: a\n      cpus: 0-1\n      program:\n"
            + "        - user: 1ms\n        - call: {cpu: 3, cost: 2us, wait: true}\n"
            + "        - loop: {count: 2, body: [sleep: 1000]}\n        - exit\n"
            + "plugins: [p-one, {id: p-two, options: {k: 5}}]\n";
    Path jf = dir.resolve("twin.json");
    Path yf = dir.resolve("twin.yaml");
    Files.writeString(jf, json);
    Files.writeString(yf, yaml);
    Scenario j = ScenarioLoader.load(jf);
    assertThat(j).isEqualTo(ScenarioLoader.load(yf));
    assertThat(j.machine().virtualized()).isTrue();
    assertThat(j.kernel().params())
        .containsEntry("cost.sched_base", 400L)
        .containsEntry("sched.nr_migrate", 7L);
    assertThat(j.plugins().get(1).options()).containsEntry("k", "5");
    assertThat(j.workload().tasks().get(0).program())
        .hasSize(4)
        .last()
        .isEqualTo(new StepSpec.Exit());
  }

  @Test
  void defaults() throws Exception {
    Scenario s = yaml("workload: {tasks: [{program: [user: 1ms]}]}\n");
    assertThat(s.name()).isEqualTo("t");
    assertThat(s.seed()).isEqualTo(1);
    assertThat(s.durationNs()).isEqualTo(1_000_000_000L);
    assertThat(s.machine().preset()).isEqualTo("small-x86");
    assertThat(s.kernel())
        .isEqualTo(
            new KernelSpec(
                "voluntary", 1000, java.util.Map.of(), java.util.Map.of(), Long.MAX_VALUE));
    TaskSpec t = s.workload().tasks().get(0);
    assertThat(t)
        .isEqualTo(
            new TaskSpec(
                "task0",
                1,
                "normal",
                0,
                0,
                0,
                0,
                0,
                "",
                false,
                false,
                "own",
                0,
                List.of(new StepSpec.User(Dist.fixed(1_000_000)))));
  }

  @Test
  void unknownFieldNamesFileLineColumnAndChoices() throws Exception {
    Path f = dir.resolve("quickstart.yaml");
    Files.writeString(
        f,
        "name: x\nworkload:\n  tasks:\n    - name: a\n      polcy: fifo\n      program: [user: 1ms]\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(
            f
                + ":5:7: workload.tasks[0].polcy: unknown field; expected one of name, count, policy");
  }

  @Test
  void aForkStepMustNameAForkedTaskAndAForkedTaskAForkStep() throws Exception {
    Path f = dir.resolve("fork.yaml");
    Files.writeString(
        f,
        "workload:\n  tasks:\n    - {name: a, program: [{fork: b}, exit]}\n"
            + "    - {name: b, program: [{user: 1ms}]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("fork of b: expected the name of a task with forked: true");
    Files.writeString(
        f,
        "workload:\n  tasks:\n    - {name: a, program: [{user: 1ms}]}\n"
            + "    - {name: b, forked: true, program: [{user: 1ms}]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("task b is forked: true but no fork step creates it");
    Files.writeString(
        f,
        "workload:\n  tasks:\n    - {name: a, program: [{fork: b}, {fork: b}, exit]}\n"
            + "    - {name: b, forked: true, count: 2, program: [{user: 1ms}]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("count: does not apply to a forked task");
    Files.writeString(
        f, "workload:\n  tasks:\n    - {name: a, start_asleep: true, program: [{user: 1ms}]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("start_asleep: expected the program to start with a block or sleep");
    Files.writeString(
        f,
        "machine: {preset: small-x86, cores_per_socket: 2, threads_per_core: 1}\n"
            + "workload:\n  tasks:\n    - {name: a, cpus: \"0\", start_cpu: 1, program: [{user: 1ms}]}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("start_cpu: expected a CPU of the task's cpus (0), got 1");
  }

  @Test
  void unknownOrNegativeParameterNamesFileLineColumnAndTheKnownKeys() throws Exception {
    Path f = dir.resolve("p.yaml");
    Files.writeString(f, "seed: 1\nkernel:\n  params:\n    cost.sched_bsae: 400ns\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(f + ":4:")
        .hasMessageContaining("kernel.params.cost.sched_bsae: unknown parameter; expected one of")
        .hasMessageContaining("cost.sched_base")
        .hasMessageNotContaining("feature.");
    Files.writeString(f, "seed: 1\nkernel:\n  params:\n    sched.nr_migrate: -3\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("kernel.params.sched.nr_migrate");
    Files.writeString(f, "seed: 1\nkernel:\n  features:\n    RUN_TO_PARTY: false\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageContaining("unknown feature; expected one of")
        .hasMessageContaining("RUN_TO_PARITY");
  }

  @Test
  void unknownFieldInJsonHasLine() throws Exception {
    Path f = dir.resolve("s.json");
    Files.writeString(
        f,
        "{\n  \"seed\": 1,\n  \"kernel\": {\n    \"hz\": 250,\n    \"premept\": \"full\"\n  }\n}\n");
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .hasMessageStartingWith(
            f + ":5:5: kernel.premept: unknown field; expected one of preempt, hz");
  }

  @Test
  void illTypedValues() {
    assertThatThrownBy(() -> yaml("seed: 1\nkernel:\n  hz: fast\n"))
        .hasMessage("t.yaml:3:3: kernel.hz: expected an integer from 0 to 100000, got \"fast\"");
    assertThatThrownBy(() -> yaml("kernel: {hz: 200}\n"))
        .hasMessageContaining("kernel.hz: expected one of 100, 250, 300, 1000, got 200");
    assertThatThrownBy(() -> yaml("duration: 10 parsecs\n"))
        .hasMessageStartingWith("t.yaml:1:1: duration: expected a duration");
    assertThatThrownBy(() -> yaml("workload: {tasks: [{nice: 20, program: [user: 1ms]}]}\n"))
        .hasMessageContaining("workload.tasks[0].nice: expected an integer from -20 to 19, got 20");
    assertThatThrownBy(() -> yaml("workload: {tasks: [{policy: fifo, program: [user: 1ms]}]}\n"))
        .hasMessageContaining("workload.tasks[0]: missing field 'rt_priority'");
    assertThatThrownBy(() -> yaml("workload: {tasks: [{cpus: 0-8, program: [user: 1ms]}]}\n"))
        .hasMessageContaining("workload.tasks[0].cpus: CPU 8 in cpulist '0-8' does not exist");
    assertThatThrownBy(() -> yaml("workload: {tasks: [{count: 0, program: [user: 1ms]}]}\n"))
        .hasMessageContaining("workload.tasks[0].count: expected an integer from 1");
    assertThatThrownBy(() -> yaml("workload: {tasks: [{program: [user: 1ms, frobnicate]}]}\n"))
        .hasMessageContaining("workload.tasks[0].program[1]: expected a one-key map");
    assertThatThrownBy(() -> yaml("machine: {preset: cray-1}\n"))
        .hasMessageContaining("machine.preset: unknown preset cray-1; expected one of small-x86");
    assertThatThrownBy(() -> yaml("seed: [1]\n"))
        .hasMessageContaining("seed: expected an integer, got a list");
  }

  @Test
  void deadlineOrdering() throws Exception {
    String ok =
        "workload: {tasks: [{policy: deadline, dl_runtime: 1ms, dl_deadline: 5ms, dl_period: 10ms, program: [user: 1ms]}]}\n";
    TaskSpec t = yaml(ok).workload().tasks().get(0);
    assertThat(t.dlRuntimeNs()).isEqualTo(1_000_000);
    assertThat(t.dlPeriodNs()).isEqualTo(10_000_000);
    assertThatThrownBy(() -> yaml(ok.replace("dl_runtime: 1ms", "dl_runtime: 6ms")))
        .hasMessageContaining(
            "workload.tasks[0].dl_runtime: expected 0 < dl_runtime <= dl_deadline");
    assertThatThrownBy(() -> yaml(ok.replace("dl_period: 10ms", "dl_period: 4ms")))
        .hasMessageContaining("dl_deadline: expected dl_deadline <= dl_period");
  }

  @Test
  void machineFieldsOverridePreset() throws Exception {
    Scenario s = yaml("machine: {preset: epyc-2s, sockets: 1, isolated_cpus: '2-3,1'}\n");
    assertThat(s.machine().sockets()).isEqualTo(1);
    assertThat(s.machine().nrCpus()).isEqualTo(128);
    assertThat(s.machine().coresPerLlc()).isEqualTo(8);
    assertThat(s.machine().disabledStates()).containsExactly("C2");
    assertThat(s.machine().isolatedCpus()).isEqualTo("1-3");
  }

  @Test
  void everyPresetLoads() throws Exception {
    for (String p : MachineBinder.PRESETS) {
      MachineSpec m = yaml("machine: {preset: " + p + "}\n").machine();
      assertThat(m.preset()).isEqualTo(p);
    }
    assertThat(yaml("machine: {preset: aarch64-128}\n").machine().isolatedCpus())
        .isEqualTo("1-31,33-63,65-95,97-127");
    assertThat(yaml("machine: {preset: power9}\n").machine().nrCpus()).isEqualTo(176);
  }

  @Test
  void setOverrides() throws Exception {
    Scenario s =
        yaml(
            "kernel: {hz: 1000}\nworkload: {tasks: [{program: [user: 1ms]}]}\n",
            "kernel.hz=250",
            "seed=7",
            "duration=2s",
            "kernel.params.cost.sched_base=400ns",
            "kernel.features.TTWU_QUEUE=false",
            "workload.tasks[0].nice=-3",
            "machine.disabled_states=[C6, C1E]",
            "kernel.latency_limit=20us");
    assertThat(s.kernel().hz()).isEqualTo(250);
    assertThat(s.seed()).isEqualTo(7);
    assertThat(s.durationNs()).isEqualTo(2_000_000_000L);
    assertThat(s.kernel().params()).containsEntry("cost.sched_base", 400L);
    assertThat(s.kernel().features()).containsEntry("TTWU_QUEUE", false);
    assertThat(s.kernel().latencyLimitNs()).isEqualTo(20_000);
    assertThat(s.workload().tasks().get(0).nice()).isEqualTo(-3);
    assertThat(s.machine().disabledStates()).containsExactly("C6", "C1E");
  }

  @Test
  void badSetNamesTheOverride() {
    assertThatThrownBy(() -> yaml("seed: 1\n", "kernel.hzz=250"))
        .hasMessage(
            "--set kernel.hzz=250: kernel.hzz: unknown field; expected one of preempt, hz, features, params, latency_limit, rt, cgroups, autogroup");
    assertThatThrownBy(() -> yaml("seed: 1\n", "kernel.hz=fast"))
        .hasMessageStartingWith("--set kernel.hz=fast: kernel.hz: expected an integer");
    assertThatThrownBy(() -> yaml("seed: 1\n", "nokey"))
        .hasMessageStartingWith("--set nokey: expected KEY=VALUE");
    assertThatThrownBy(() -> yaml("seed: 1\n", "workload.tasks[3].nice=1"))
        .hasMessageStartingWith("--set workload.tasks[3].nice=1: workload.tasks[3] does not exist");
    assertThatThrownBy(() -> yaml("seed: 1\n", "seed.x=1"))
        .hasMessageStartingWith("--set seed.x=1: seed is not a map");
  }

  @Test
  void syntaxErrorHasLocation() {
    assertThatThrownBy(() -> yaml("seed: 1\nkernel: {hz: 250\n"))
        .hasMessageStartingWith("t.yaml:")
        .hasMessageContaining("syntax error");
  }

  @Test
  void missingFileAndBadExtension() {
    assertThatThrownBy(() -> ScenarioLoader.load(dir.resolve("nope.yaml")))
        .hasMessageEndingWith("nope.yaml: no such file");
    assertThatThrownBy(() -> ScenarioLoader.load(dir.resolve("s.toml")))
        .hasMessageContaining("expected .yaml, .yml or .json");
  }

  @Test
  void aSyscallLoopHoldsOnlySyscallParts() {
    assertThatThrownBy(
            () ->
                yaml(
                    "workload: {tasks: [{name: w, program: [{syscall: [{loop: {count: 2, body:"
                        + " [{user: 1us}]}}]}]}]}\n"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("a syscall's parts are kernel, wake, block, sleep and loop steps");
  }
}
