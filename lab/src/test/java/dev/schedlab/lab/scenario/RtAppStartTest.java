package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedlab.engine.config.Dist;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.engine.config.TaskSpec;
import dev.schedlab.engine.output.RunResult;
import dev.schedlab.lab.rtapp.LogRow;
import dev.schedlab.lab.rtapp.RtAppParams;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rt-app's start as its {@code main()} and {@code thread_body()} run it: the main thread creates
 * the threads one by one, each sets itself up and waits at the start barrier until the last one is
 * there; timers and the initial delay count from thread 0's {@code t_zero}.
 */
class RtAppStartTest {
  private static final long SETUP = RtAppParams.THREAD_SETUP.defaultValue();
  private static final long FORK = RtAppParams.FORK_COST.defaultValue();
  private static final long MAIN = RtAppParams.MAIN_SETUP.defaultValue();

  @TempDir Path dir;

  private Scenario load(String tasks) throws Exception {
    Path f = dir.resolve("start.json");
    Files.writeString(
        f,
        "{ \"tasks\" : {"
            + tasks
            + "}, \"global\" : { \"duration\" : 1, \"calibration\" : 20,"
            + " \"logdir\" : \"./\" } }");
    return ScenarioLoader.load(f);
  }

  private static final String THREE =
      "\"a\" : { \"instance\" : 2, \"loop\" : 3, \"run\" : 100,"
          + " \"timer\" : { \"ref\" : \"a\", \"period\" : 1000 } },"
          + " \"b\" : { \"loop\" : 3, \"run\" : 100, \"fork\" : \"c\","
          + " \"timer\" : { \"ref\" : \"b\", \"period\" : 1000 } },"
          + " \"c\" : { \"instance\" : 0, \"loop\" : 1, \"run\" : 50 }";

  @Test
  void theMainThreadCreatesTheThreadsInTheFilesOrder() throws Exception {
    Scenario s = load(THREE);
    TaskSpec main = RtAppFixtures.task(s, "rt-app");
    assertThat(main.count()).isEqualTo(1);
    List<StepSpec> expected = new ArrayList<>();
    // launched at an arbitrary phase of the jiffy: up to 20 ms, whole ticks at every HZ
    expected.add(new StepSpec.Sleep(new Dist(Dist.Kind.UNIFORM, 0, RtAppBinder.LAUNCH_PHASE_NS)));
    expected.add(new StepSpec.User(Dist.fixed(MAIN)));
    for (String name : List.of("a-0", "a-1", "b-2")) {
      expected.add(
          new StepSpec.Kernel(
              List.of(new StepSpec.Segment(Dist.fixed(FORK), true, false, "NONE"))));
      expected.add(new StepSpec.Fork(name, name, -1, true));
    }
    assertThat(main.program()).startsWith(expected.toArray(StepSpec[]::new));
    assertThat(main.program().get(expected.size())).isInstanceOf(StepSpec.Block.class);
    // the threads exist only once forked: every one is a template
    for (String name : List.of("a-0", "a-1", "b-2", "c")) {
      assertThat(RtAppFixtures.task(s, name).count()).as(name).isZero();
    }
  }

  @Test
  void startedThreadsWaitAtTheBarrierAndThreadZeroTakesTZero() throws Exception {
    Scenario s = load(THREE);
    StepSpec.User setup = new StepSpec.User(Dist.fixed(SETUP));
    StepSpec.Barrier start = new StepSpec.Barrier("rtapp/start", 3);
    assertThat(RtAppFixtures.task(s, "a-0").program())
        .startsWith(setup, new StepSpec.Stamp(RtAppTasks.T_ZERO), start);
    assertThat(RtAppFixtures.task(s, "a-1").program()).startsWith(setup, start);
    assertThat(RtAppFixtures.task(s, "b-2").program()).startsWith(setup, start);
    // a thread of a fork event skips the barrier
    assertThat(RtAppFixtures.task(s, "c").program()).startsWith(setup);
    assertThat(RtAppFixtures.steps(RtAppFixtures.task(s, "c"), StepSpec.Barrier.class)).isEmpty();
    assertThat(RtAppFixtures.steps(RtAppFixtures.task(s, "b-2"), StepSpec.Timer.class))
        .allSatisfy(t -> assertThat(t.from()).isEqualTo(RtAppTasks.T_ZERO));
  }

  @Test
  void noThreadRunsItsLoopBeforeTheLastOneIsAtTheBarrier() throws Exception {
    Scenario s = load(THREE);
    RunResult r = RtAppFixtures.run(s);
    Map<String, List<LogRow>> rows = RtAppFixtures.report(s).rows(r);
    // the last thread reaches the barrier after the main's start-up, three clones and its setup
    long lastArrivalUs = (MAIN + 3 * FORK + SETUP) / 1000;
    for (String name : List.of("a-0", "a-1", "b-2")) {
      assertThat(rows.get(name)).as(name).hasSize(3);
      assertThat(rows.get(name).get(0).start()).as(name).isGreaterThanOrEqualTo(lastArrivalUs);
    }
    // and they leave it together: their first loops start within the others' runs
    long first = rows.get("a-0").get(0).start();
    for (String name : List.of("a-1", "b-2")) {
      assertThat(rows.get(name).get(0).start() - first).as(name).isLessThan(400);
    }
  }

  @Test
  void anRtAppRunIsDeterministic() throws Exception {
    Scenario s = load(THREE);
    Map<String, List<LogRow>> once = RtAppFixtures.report(s).rows(RtAppFixtures.run(s));
    Map<String, List<LogRow>> again = RtAppFixtures.report(s).rows(RtAppFixtures.run(s));
    assertThat(again).isEqualTo(once);
    assertThat(once).containsKeys("a-0", "a-1", "b-2");
  }
}
