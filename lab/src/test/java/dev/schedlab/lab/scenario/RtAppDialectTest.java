package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rt-app's dialect: repeated keys in order, trailing commas, comments, bare suspend, errors. */
class RtAppDialectTest {
  @TempDir Path dir;

  private Scenario load(String text) throws Exception {
    Path f = dir.resolve("t.json");
    Files.writeString(f, text);
    return ScenarioLoader.load(f);
  }

  @Test
  void repeatedKeysAreKeptInOrderAsWorkgenNumbersThem() throws Exception {
    Scenario s = ScenarioLoader.load(RtAppFixtures.file("dialect.json"));
    TaskSpec t = RtAppFixtures.task(s, "t-0");
    List<StepSpec> steps =
        RtAppFixtures.flat(t.program()).stream()
            .filter(x -> x instanceof StepSpec.User || x instanceof StepSpec.Sleep)
            .toList();
    // setup 20 (thread_setup); run 1000, sleep 2000, run 3000, sleep 4000, run 500 (µs):
    // calibration 20 ns per loop
    assertThat(steps)
        .containsExactly(
            new StepSpec.User(Dist.fixed(20_000)),
            new StepSpec.User(Dist.fixed(1_000_000)),
            new StepSpec.Sleep(Dist.fixed(2_000_000)),
            new StepSpec.User(Dist.fixed(3_000_000)),
            new StepSpec.Sleep(Dist.fixed(4_000_000)),
            new StepSpec.User(Dist.fixed(500_000)));
    // setup, t_zero, start barrier, the loop, exit
    assertThat(t.program()).hasSize(5).last().isEqualTo(new StepSpec.Exit());
    assertThat(((StepSpec.Loop) t.program().get(3)).count()).isEqualTo(3);
    List<String> notes = RtAppFixtures.report(s).plan().notes();
    assertThat(notes)
        .anySatisfy(
            n ->
                assertThat(n)
                    .contains("3 repeated key(s)")
                    .contains("tasks.t.run1 (line 8)")
                    .contains("tasks.t.sleep1 (line 9)")
                    .contains("tasks.t.run2 (line 10)"));
    assertThat(notes).anySatisfy(n -> assertThat(n).contains("1 bare \"suspend\""));
  }

  @Test
  void aBareSuspendSuspendsTheThreadUntilResumed() throws Exception {
    Scenario s = ScenarioLoader.load(RtAppFixtures.file("dialect.json"));
    TaskSpec sleeper = RtAppFixtures.task(s, "s-2");
    assertThat(RtAppFixtures.steps(sleeper, StepSpec.CondWait.class))
        .containsExactly(new StepSpec.CondWait("rtapp/cond/s", "rtapp/mutex/s"));
    TaskSpec waker = RtAppFixtures.task(s, "w-1");
    assertThat(RtAppFixtures.steps(waker, StepSpec.Signal.class))
        .containsExactly(new StepSpec.Signal("rtapp/cond/s", true));
  }

  @Test
  void trailingCommasAndCommentsAreAccepted() throws Exception {
    Scenario s =
        load(
            "/* c */ { \"tasks\" : { \"a\" : { \"run\" : 10, // x\n \"sleep\" : 10, }, },"
                + " \"global\" : { \"duration\" : 1, \"cpus\" : [1, 2,], }, }");
    assertThat(s.workload().tasks()).extracting(TaskSpec::name).containsExactly("rt-app", "a-0");
    assertThat(RtAppFixtures.report(s).plan().notes())
        .anySatisfy(n -> assertThat(n).contains("line 2: global.cpus: unknown global key ignored"));
  }

  @Test
  void invalidJsonIsRejectedWithItsLine() {
    assertThatThrownBy(() -> load("{\n \"tasks\" : {\n  \"a\" : { \"run\" 10 }\n }\n}"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith(dir.resolve("t.json") + ":3:")
        .hasMessageContaining("invalid JSON");
  }

  @Test
  void aFileWithoutTasksIsRejectedAsRtAppRejectsIt() {
    assertThatThrownBy(() -> load("{ \"global\" : { \"duration\" : 1 } }"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("no \"tasks\" object");
  }

  @Test
  void everyGlobalKeyIsAcceptedAndThoseWithoutMeaningAreNoted() throws Exception {
    Scenario s = ScenarioLoader.load(RtAppFixtures.file("every-key.json"));
    assertThat(s.durationNs()).isEqualTo(1_000_000_000L);
    List<String> notes = RtAppFixtures.report(s).plan().notes();
    for (String key : List.of("global.ftrace", "global.lock_pages")) {
      assertThat(notes).anySatisfy(n -> assertThat(n).contains(key));
    }
    // pi_enabled has a meaning: every mutex, a condition's too, is a PI one
    assertThat(notes).noneSatisfy(n -> assertThat(n).contains("pi_enabled"));
    assertThat(RtAppFixtures.report(s).plan().log().gnuplot()).isTrue();
    assertThat(RtAppFixtures.report(s).plan().cumulativeSlack()).isTrue();
    assertThat(RtAppFixtures.report(s).plan().nsPerLoop()).isEqualTo(20);
  }

  @Test
  void globalKeysOfTheWrongTypeAreRejectedWithKeyAndLine() {
    assertThatThrownBy(
            () ->
                load(
                    "{ \"tasks\" : { \"a\" : { \"run\" : 10 } },\n"
                        + " \"global\" : {\n \"gnuplot\" : \"yes\" } }"))
        .hasMessageContaining(":3:")
        .hasMessageContaining("global.gnuplot")
        .hasMessageContaining("invalid type for key gnuplot");
    assertThatThrownBy(
            () ->
                load(
                    "{ \"tasks\" : { \"a\" : { \"run\" : 10 } },"
                        + " \"global\" : { \"ftrace\" : \"main,bogus\" } }"))
        .hasMessageContaining("invalid ftrace category 'bogus'");
    assertThatThrownBy(
            () ->
                load(
                    "{ \"tasks\" : { \"a\" : { \"run\" : 10 } },"
                        + " \"global\" : { \"default_policy\" : \"SCHED_FOO\" } }"))
        .hasMessageContaining("invalid policy SCHED_FOO");
    assertThatThrownBy(
            () ->
                load(
                    "{ \"tasks\" : { \"a\" : { \"run\" : 10 } },"
                        + " \"global\" : { \"calibration\" : \"GPU0\" } }"))
        .hasMessageContaining("invalid calibration");
  }

  @Test
  void logSizeModesFollowRtApp() throws Exception {
    String t = "{ \"tasks\" : { \"a\" : { \"run\" : 10 } }%s }";
    assertThat(RtAppFixtures.report(load(String.format(t, ""))).plan().log().enabled()).isFalse();
    assertThat(
            RtAppFixtures.report(load(String.format(t, ", \"global\" : {}")))
                .plan()
                .log()
                .enabled())
        .isTrue();
    assertThat(
            RtAppFixtures.report(
                    load(String.format(t, ", \"global\" : { \"log_size\" : \"disable\" }")))
                .plan()
                .log()
                .enabled())
        .isFalse();
    assertThat(
            RtAppFixtures.report(load(String.format(t, ", \"global\" : { \"log_size\" : 1 }")))
                .plan()
                .log()
                .ringRows())
        .isEqualTo((1 << 20) / 88);
  }
}
