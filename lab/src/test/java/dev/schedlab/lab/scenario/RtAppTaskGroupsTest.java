package dev.schedlab.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.schedlab.engine.config.CgroupSpec;
import dev.schedlab.engine.config.StepSpec;
import dev.schedlab.lab.rtapp.LogRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** rt-app's {@code taskgroup} keys become cpu-controller groups the fair class schedules. */
class RtAppTaskGroupsTest {
  @TempDir Path dir;

  private Path write(String name, String text) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, text);
    return f;
  }

  /** One hog in /a and three in {@code groupOfThree} ("": the root), all on CPU 0. */
  private Path hogs(String groupOfThree) throws Exception {
    String hog = "{\"loop\": -1, \"cpus\": [0], \"run\": 1000%s}";
    String three = groupOfThree.isEmpty() ? "" : ", \"taskgroup\": \"" + groupOfThree + "\"";
    return write(
        "tg.json",
        "{\"tasks\": {\"alone\": "
            + String.format(hog, ", \"taskgroup\": \"/a\"")
            + ", \"many\": "
            + String.format(hog, ", \"instance\": 3" + three)
            + "}, \"global\": {\"duration\": 1, \"calibration\": 20, \"logdir\": \"./\"}}");
  }

  @Test
  void aTaskgroupPathMakesItsGroupsUnderTheirParents() throws Exception {
    Scenario s = ScenarioLoader.load(hogs("//a/b/"));
    assertThat(s.kernel().cgroups())
        .containsExactly(
            new CgroupSpec("a", "", 100, -1, 100_000_000L, List.of()),
            new CgroupSpec("a/b", "a", 100, -1, 100_000_000L, List.of()));
    // each thread writes itself into its group at its start (set_thread_taskgroup())
    assertThat(RtAppFixtures.flat(RtAppFixtures.task(s, "many-1").program()))
        .contains(new StepSpec.Cgroup("a/b"));
  }

  @Test
  void groupsShareTheCpuBeforeTheirThreadsDo() throws Exception {
    // Flat, the four hogs get a quarter each; with the three in a group of their own beside
    // the one in /a, each group gets half and the one hog as much as the three together.
    Map<String, List<LogRow>> flat = rows(ScenarioLoader.load(hogs("")));
    Map<String, List<LogRow>> grouped = rows(ScenarioLoader.load(hogs("/b")));
    long flatAlone = flat.get("alone-0").size();
    long flatMany = flat.get("many-1").size();
    assertThat((double) flatAlone).isCloseTo(flatMany, withinPercentage(5));
    long alone = grouped.get("alone-0").size();
    long many =
        grouped.get("many-1").size() + grouped.get("many-2").size() + grouped.get("many-3").size();
    assertThat((double) alone).isCloseTo(many, withinPercentage(5));
    assertThat((double) alone).isCloseTo(2.0 * flatAlone, withinPercentage(5));
  }

  @Test
  void aPhaseNamingAnotherGroupMovesTheThreadThere() throws Exception {
    // "mover" alternates 40 ms of work in /a beside one hog and in /b beside three. Each group
    // gets half the CPU, so the mover a quarter in /a and an eighth in /b: its phases in /b take
    // twice as long (in the root group, beside the two groups, both would take the same). Each
    // move's write sleeps a grace period before the phase, which its wakeup placement repays
    // early in the phase: long phases keep that small.
    Path f =
        write(
            "move.json",
            "{\"tasks\": {\"hog\": {\"loop\": -1, \"cpus\": [0], \"taskgroup\": \"/a\","
                + " \"run\": 1000},"
                + " \"three\": {\"instance\": 3, \"loop\": -1, \"cpus\": [0],"
                + " \"taskgroup\": \"/b\", \"run\": 1000},"
                + " \"mover\": {\"loop\": -1, \"cpus\": [0], \"phases\": {"
                + " \"p1\": {\"taskgroup\": \"/a\", \"run\": 40000},"
                + " \"p2\": {\"taskgroup\": \"/b\", \"run\": 40000}}}},"
                + " \"global\": {\"duration\": 4, \"calibration\": 20, \"logdir\": \"./\"}}");
    Scenario s = ScenarioLoader.load(f);
    assertThat(RtAppFixtures.flat(RtAppFixtures.task(s, "mover-4").program()))
        .containsSubsequence(new StepSpec.Cgroup("a"), new StepSpec.Cgroup("b"));
    List<LogRow> rows = rows(s).get("mover-4");
    // phases alternate p1, p2
    long inA = 0;
    long inB = 0;
    for (int i = 0; i + 1 < rows.size(); i += 2) {
      inA += rows.get(i).end() - rows.get(i).start();
      inB += rows.get(i + 1).end() - rows.get(i + 1).start();
    }
    assertThat(rows.size()).isGreaterThan(10);
    assertThat((double) inB).isCloseTo(2.0 * inA, withinPercentage(10));
  }

  @Test
  void aTaskgroupNamedAlsoInKernelCgroupsIsRefused() throws Exception {
    Path rt = hogs("/b");
    Path scenario =
        write(
            "s.yaml",
            "name: s\nduration: 10ms\nkernel:\n  cgroups:\n    a: {weight: 100}\n"
                + "workload:\n  rtapp: tg.json\n");
    assertThat(rt).exists();
    assertThatThrownBy(() -> ScenarioLoader.load(scenario))
        .hasMessageContaining("taskgroup /a is also a cgroup of kernel.cgroups");
  }

  private static Map<String, List<LogRow>> rows(Scenario s) throws Exception {
    return RtAppFixtures.report(s).rows(RtAppFixtures.run(s));
  }
}
