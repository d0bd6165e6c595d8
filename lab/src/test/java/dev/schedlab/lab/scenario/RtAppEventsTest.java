package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.rtapp.LogRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every thread property and event of rt-app's tutorial (every-key.json) and their errors. */
class RtAppEventsTest {
  private static Scenario every;

  @TempDir Path dir;

  @BeforeAll
  static void load() throws Exception {
    every = ScenarioLoader.load(RtAppFixtures.file("every-key.json"));
  }

  private static TaskSpec task(String name) {
    return RtAppFixtures.task(every, name);
  }

  @Test
  void threadsAreNamedAndOrderedAsRtAppCreatesThem() {
    assertThat(every.workload().tasks())
        .extracting(TaskSpec::name)
        .containsExactly(
            "rt-app",
            "periodic-0",
            "periodic-1",
            "dl-2",
            "producer-3",
            "consumer-4",
            "ping-5",
            "pong-6",
            "broadcaster-7",
            "listener-8",
            "listener-9",
            "meeting-10",
            "meeting-11",
            "meeting-12",
            "forker-13",
            "batch-14",
            "idle-15",
            "rr-16",
            "child");
    assertThat(task("child").count()).isZero(); // instance 0: a template for fork events
  }

  @Test
  void schedulingPropertiesMapOntoPolicies() {
    TaskSpec p = task("periodic-0");
    assertThat(p.policy()).isEqualTo("fifo");
    assertThat(p.rtPriority()).isEqualTo(30);
    assertThat(p.cpus()).isEqualTo("0-1");
    TaskSpec dl = task("dl-2");
    assertThat(dl.policy()).isEqualTo("deadline");
    assertThat(List.of(dl.dlRuntimeNs(), dl.dlDeadlineNs(), dl.dlPeriodNs()))
        .containsExactly(2_000_000L, 8_000_000L, 10_000_000L);
    TaskSpec batch = task("batch-14");
    assertThat(batch.policy()).isEqualTo("batch");
    assertThat(batch.nice()).isEqualTo(5);
    // after the setup and the start barrier: the custom slice
    assertThat(batch.program().get(2)).isEqualTo(new StepSpec.Slice(3_000_000));
    assertThat(task("idle-15").policy()).isEqualTo("idle");
    assertThat(task("rr-16").policy()).isEqualTo("rr");
    assertThat(task("rr-16").rtPriority()).isEqualTo(20);
  }

  @Test
  void phasesChangeAffinityAndTimersKeepTheirMode() {
    TaskSpec p = task("periodic-1");
    assertThat(RtAppFixtures.steps(p, StepSpec.Affinity.class))
        .containsExactly(new StepSpec.Affinity("2"), new StepSpec.Affinity("0-1"));
    List<StepSpec.Timer> timers = RtAppFixtures.steps(p, StepSpec.Timer.class);
    assertThat(timers)
        .extracting(
            StepSpec.Timer::ref,
            StepSpec.Timer::relative,
            StepSpec.Timer::perTask,
            StepSpec.Timer::periodNs)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("rtapp/timer/unique", true, true, 5_000_000L),
            org.assertj.core.groups.Tuple.tuple("rtapp/timer/unique_abs", false, true, 5_000_000L),
            org.assertj.core.groups.Tuple.tuple("rtapp/timer/unique", true, true, 5_000_000L));
    assertThat(RtAppFixtures.steps(task("dl-2"), StepSpec.Timer.class).get(0).perTask()).isFalse();
    assertThat(RtAppFixtures.steps(p, StepSpec.UserWall.class))
        .containsExactly(new StepSpec.UserWall(Dist.fixed(1_500_000)));
  }

  @Test
  void computeEventsFollowTheirCostModel() {
    TaskSpec p = task("periodic-0");
    List<StepSpec.User> user = RtAppFixtures.steps(p, StepSpec.User.class);
    // the thread's setup (thread_setup); run 500 us at 20 ns per loop; mem 100000 B at 10 GB/s;
    // memrun read and write 10000 B at 300 ps; chase of 1000 hops through 64 MiB at DRAM latency.
    assertThat(user)
        .extracting(u -> u.duration().a())
        .containsExactly(20_000L, 500_000L, 10_000L, 3_000L, 3_000L, 80_000L);
    // iorun 200000 B in writes of mem_buffer_size (65536) to /dev/null: 4 write() calls
    assertThat(RtAppFixtures.steps(p, StepSpec.Kernel.class)).hasSize(1);
    assertThat(loops(p.program())).anySatisfy(l -> assertThat(l.count()).isEqualTo(4));
  }

  private static List<StepSpec.Loop> loops(List<StepSpec> program) {
    return program.stream()
        .flatMap(
            s ->
                s instanceof StepSpec.Loop l
                    ? Stream.concat(Stream.of(l), loops(l.body()).stream())
                    : Stream.empty())
        .toList();
  }

  @Test
  void synchronisationEventsMapOntoWaitQueues() {
    // the initial delay, after the start barrier, counts from t_zero
    assertThat(task("producer-3").program().get(2))
        .isEqualTo(new StepSpec.SleepAbs(1_000_000, RtAppTasks.T_ZERO));
    // every-key.json sets pi_enabled: the mutexes, conditions' too, are PI futexes
    assertThat(RtAppFixtures.flat(task("producer-3").program()))
        .containsSubsequence(
            new StepSpec.PiMutexLock("rtapp/pi_mutex/m0"),
            new StepSpec.Signal("rtapp/cond/c0", false),
            new StepSpec.PiMutexUnlock("rtapp/pi_mutex/m0"),
            new StepSpec.Wake("rtapp/sem/s0", false),
            new StepSpec.PiMutexLock("rtapp/pi_mutex/consumer"),
            new StepSpec.Signal("rtapp/cond/consumer", true),
            new StepSpec.PiMutexUnlock("rtapp/pi_mutex/consumer"));
    assertThat(RtAppFixtures.flat(task("consumer-4").program()))
        .containsSubsequence(
            new StepSpec.CondWait("rtapp/cond/c0", "rtapp/pi_mutex/m0", true),
            new StepSpec.PiMutexUnlock("rtapp/pi_mutex/m0"),
            new StepSpec.Block("rtapp/sem/s0"),
            new StepSpec.CondWait("rtapp/cond/consumer", "rtapp/pi_mutex/consumer", true));
    assertThat(RtAppFixtures.flat(task("ping-5").program()))
        .containsSubsequence(
            new StepSpec.Signal("rtapp/cond/c1", false),
            new StepSpec.CondWait("rtapp/cond/c1", "rtapp/pi_mutex/m1", true));
    assertThat(RtAppFixtures.steps(task("broadcaster-7"), StepSpec.Signal.class))
        .containsExactly(new StepSpec.Signal("rtapp/cond/c2", true));
    assertThat(RtAppFixtures.steps(task("meeting-11"), StepSpec.Barrier.class))
        .containsExactly(
            new StepSpec.Barrier("rtapp/start", 17), // the start barrier of the 17 threads
            // rt-app's barrier event: its own mutex (PI here) and condition
            new StepSpec.Barrier("rtapp/barrier/b0", 3, "rtapp/pi_mutex/barrier/b0", true));
    assertThat(RtAppFixtures.steps(task("dl-2"), StepSpec.Yield.class)).hasSize(1);
    assertThat(RtAppFixtures.steps(task("forker-13"), StepSpec.Fork.class))
        .containsExactly(new StepSpec.Fork("child", "child-", 17, true));
  }

  @Test
  void attributesWithoutMeaningInTheModelAreNoted() {
    List<String> notes = RtAppFixtures.report(every).plan().notes();
    for (String key :
        List.of(
            "tasks.periodic.util_min",
            "tasks.periodic.util_max",
            "tasks.periodic.phases.heavy.util_max",
            "tasks.periodic.nodes_membind")) {
      assertThat(notes).anySatisfy(n -> assertThat(n).contains(key));
    }
    // a taskgroup is modelled: its group holds the thread
    assertThat(notes).noneSatisfy(n -> assertThat(n).contains("taskgroup"));
    assertThat(every.kernel().cgroups())
        .extracting(CgroupSpec::name, CgroupSpec::tasks)
        .containsExactly(tuple("tg1", List.of()));
    assertThat(RtAppFixtures.flat(task("batch-14").program())).contains(new StepSpec.Cgroup("tg1"));
  }

  @Test
  void everyThreadOfTheFileRuns() throws Exception {
    RunResult r = RtAppFixtures.run(every);
    Map<String, List<LogRow>> rows = RtAppFixtures.report(every).rows(r);
    assertThat(rows.keySet()).contains("child-17-0000", "child-18-0001");
    rows.forEach((name, list) -> assertThat(list).as(name).isNotEmpty());
    assertThat(rows.get("child-17-0000")).hasSize(3); // its loop: 3, then it exits
    assertThat(rows.get("forker-13")).hasSize(2);
    int met = rows.get("meeting-10").size();
    assertThat(rows.get("meeting-12").size()).isBetween(met - 1, met + 1);
  }

  @Test
  void threadsSuspendedOnOneNameAreResumedTogether() throws Exception {
    Path f = dir.resolve("s.json");
    Files.writeString(
        f,
        "{ \"tasks\" : {\n"
            + " \"a\" : { \"suspend\" : \"grp\", \"run\" : 100 },\n"
            + " \"b\" : { \"suspend\" : \"grp\", \"run\" : 100 },\n"
            + " \"w\" : { \"sleep\" : 2000, \"resume\" : \"grp\" } },\n"
            + " \"global\" : { \"duration\" : 1 } }");
    Scenario s = ScenarioLoader.load(f);
    assertThat(RtAppFixtures.steps(RtAppFixtures.task(s, "b-1"), StepSpec.CondWait.class))
        .containsExactly(new StepSpec.CondWait("rtapp/cond/grp", "rtapp/mutex/grp"));
    assertThat(RtAppFixtures.report(s).plan().notes())
        .anySatisfy(
            n ->
                assertThat(n)
                    .startsWith("line 2: tasks.a.suspend: suspend on \"grp\" as rt-app 1.0 does"));
    Map<String, List<LogRow>> rows = RtAppFixtures.report(s).rows(RtAppFixtures.run(s));
    // one broadcast every ~2 ms wakes both: about 500 phases each in 1 s
    assertThat(rows.get("a-0").size()).isBetween(400, 500);
    assertThat(rows.get("b-1").size())
        .isBetween(rows.get("a-0").size() - 1, rows.get("a-0").size() + 1);
  }

  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of("{\"tasks\":{\"a\":{\"run\":\"x\"}}}", "Unknown or mismatch run event type"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"fork\":\"nobody\",\"run\":1}}}", "fork of unknown task nobody"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"phases\":{\"p\":{\"priority\":5,\"run\":1}}}}}",
            "a phase changing priority cannot be modelled"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"util_min\":2000,\"run\":1}}}", "invalid util_min 2000 (> 1024)"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"taskgroup\":\"tg\",\"run\":1}}}", "has to start with [/]"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"policy\":\"SCHED_FIFO\",\"taskgroup\":\"/tg\",\"run\":1}}}",
            "no taskgroup support for policy SCHED_FIFO"),
        Arguments.of("{\"tasks\":{\"a\":{\"cpus\":[99],\"run\":1}}}", "invalid cpu 99"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"iorun\":10}},\"global\":{\"io_device\":\"/tmp/x\"}}",
            "iorun to /tmp/x cannot be modelled"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"memrun\":{\"type\":\"bogus\",\"size\":1,\"count\":1}}}}",
            "unknown memrun type bogus"),
        Arguments.of("{\"tasks\":{\"a\":{\"loop\":3}}}", "no events found"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"policy\":\"SCHED_DEADLINE\",\"dl-runtime\":5000,"
                + "\"dl-period\":1000,\"run\":1}}}",
            "SCHED_DEADLINE needs 0 < dl-runtime"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"instance\":-1,\"run\":1}}}", "invalid num_instances value -1"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"fork\":\"b\",\"run\":1},\"b\":{\"instance\":0,"
                + "\"barrier\":\"x\"}}}",
            "a forked task cannot use a barrier"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"policy\":\"SCHED_FIFO\",\"priority\":0,\"run\":1}}}",
            "priority 0 is not valid for SCHED_FIFO"),
        Arguments.of(
            "{\"resources\":{\"r\":{\"type\":\"bogus\"}},\"tasks\":{\"a\":{\"run\":1}}}",
            "invalid type of resource bogus"),
        Arguments.of(
            "{\"tasks\":{\"a\":{\"memrun\":{\"type\":\"read\",\"size\":1,\"count\":1,"
                + "\"ref\":\"r\"}},\"b\":{\"memrun\":{\"type\":\"read\",\"size\":2,\"count\":1,"
                + "\"ref\":\"r\"}}}}",
            "shared with mismatched params"));
  }

  @ParameterizedTest
  @MethodSource("errors")
  void whatCannotRunIsRefusedWithFileLineKeyAndReason(String json, String reason) throws Exception {
    Path f = dir.resolve("t.json");
    Files.writeString(f, json);
    assertThatThrownBy(() -> ScenarioLoader.load(f))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(f + ":1:")
        .hasMessageContaining(reason)
        .satisfies(
            e -> assertThat(e.getMessage()).matches("(?s).*:1:\\d+: (tasks|resources)\\..*"));
  }
}
